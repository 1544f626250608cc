"""The terminal's frame text in the reader's language: typer's "Usage:" line, its panel titles
("Arguments", "Options", "Commands", "Error"), the --help line, the ``<int>`` type column and its
own usage errors ("No such option", "Missing argument" ...); and its texts, set so that they
break as the terminal's other Chinese text does (rich cut a Chinese help line with "…").

typer (0.29) carries its own copy of click with these strings written in plain English, so there
is no gettext domain to hook. What it does offer: the panel titles and hint templates are
``typer.rich_utils`` settings read at each use, a command's ``context_class`` picks the help
formatter that writes the usage line, and an error raised while parsing passes up through the
root group before typer prints it. ``FrameGroup`` (the root command's class) uses exactly those,
and only for the length of one run of the command, so importing tabletrek as a library changes
nothing. In English nothing is touched: the output is typer's own, byte for byte.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from rich.text import Text
from typer import rich_utils
from typer._click import exceptions as click_errors
from typer._click.core import Command, Context
from typer._click.formatting import HelpFormatter
from typer._param_types import normalize_choice_value
from typer.core import TyperArgument, TyperGroup, TyperOption

from tabletrek.core.linebreak import Wrapped
from tabletrek.i18n import DEFAULT_LANG, env_lang, is_supported, join_list, normalize_lang, translate

# typer.rich_utils setting -> catalog key (templates keep typer's own {} fields and rich markup).
SETTINGS = {
    "ARGUMENTS_PANEL_TITLE": "cli.frame.arguments",
    "OPTIONS_PANEL_TITLE": "cli.frame.options",
    "COMMANDS_PANEL_TITLE": "cli.frame.commands",
    "ERRORS_PANEL_TITLE": "cli.frame.error",
    "ABORTED_TEXT": "cli.frame.aborted",
    "RICH_HELP": "cli.frame.try_help",
    "DEFAULT_STRING": "cli.frame.default",
    "ENVVAR_STRING": "cli.frame.envvar",
    "REQUIRED_LONG_STRING": "cli.frame.required",
    "DEPRECATED_STRING": "cli.frame.deprecated",
}


def frame_lang(args: Sequence[str]) -> str:
    """The language of a run: its ``--lang`` (which every command that talks takes), else
    TABLETREK_LANG. Read from the raw arguments because typer prints help and usage errors
    before it has parsed any option."""
    return argv_lang(args) or env_lang()


def argv_lang(args: Sequence[str]) -> str | None:
    """The language a ``--lang`` among the raw arguments asks for, if any (and supported)."""
    for at, arg in enumerate(args):
        if arg == "--":
            break
        value = None
        if arg == "--lang" and at + 1 < len(args):
            value = args[at + 1]
        elif arg.startswith("--lang="):
            value = arg.removeprefix("--lang=")
        if value is not None and is_supported(value):
            return normalize_lang(value)
    return None


class FrameGroup(TyperGroup):
    """The root ``tabletrek`` group: runs the command with its frame in the reader's language."""

    def main(self, args: Sequence[str] | None = None, *rest: Any, **extra: Any) -> Any:
        lang = frame_lang(sys.argv[1:] if args is None else args)
        if lang == DEFAULT_LANG:
            with _highlighting(FoldingHighlighter()):
                return super().main(args, *rest, **extra)
        with _settings(lang), _dressed(self, lang):
            return super().main(args, *rest, **extra)

    def make_context(
        self, info_name: str | None, args: list[str], parent: Context | None = None, **extra: Any
    ) -> Context:
        with _reworded():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Context) -> Any:
        with _reworded():
            return super().invoke(ctx)


@contextmanager
def _reworded() -> Iterator[None]:
    """A usage error raised inside says its message in the run's language."""
    try:
        yield
    except click_errors.ClickException as error:
        lang = _current_lang()
        if lang == DEFAULT_LANG or isinstance(error, click_errors.NoArgsIsHelpError):
            raise
        text = frame_message(error, lang)
        if text is None:
            raise
        plain: click_errors.ClickException
        if isinstance(error, click_errors.UsageError):
            plain = click_errors.UsageError(text, error.ctx)
        else:
            plain = click_errors.ClickException(text)
        plain.exit_code = error.exit_code
        raise plain from None


_LANG: list[str] = []  # the language of the run in progress (innermost last)


def _current_lang() -> str:
    return _LANG[-1] if _LANG else DEFAULT_LANG


@contextmanager
def _settings(lang: str) -> Iterator[None]:
    """typer's frame settings in ``lang`` for one run, put back afterwards; and its texts set as
    ``Wrapped`` text (see ``BreakingHighlighter``)."""
    saved = {name: getattr(rich_utils, name) for name in SETTINGS}
    _LANG.append(lang)
    try:
        for name, key in SETTINGS.items():
            setattr(rich_utils, name, translate(key, lang))
        with _highlighting(BreakingHighlighter()):
            yield
    finally:
        _LANG.pop()
        for name, value in saved.items():
            setattr(rich_utils, name, value)


@contextmanager
def _highlighting(highlighter: rich_utils.OptionHighlighter) -> Iterator[None]:
    """typer's texts passed through ``highlighter`` for one run, its own put back afterwards."""
    saved = rich_utils.highlighter
    rich_utils.highlighter = highlighter
    try:
        yield
    finally:
        rich_utils.highlighter = saved


class BreakingHighlighter(rich_utils.OptionHighlighter):
    """typer's highlighter, whose texts (the help texts, the usage line, an error's message) break
    as the terminal's do: typer passes every text it prints through it. rich breaks a text at
    its spaces only: in typer's help tables it cut a run wider than its cell with "…" (a Chinese
    help line lost the rest of its sentence: "例 …" for 例如 ismcts:iterations=50…), and in the
    error panel it folded a Chinese list anywhere ("bot_thr" over "eads", a line opening with 、)."""

    def __call__(self, text: str | Text) -> Text:
        return Wrapped.of(super().__call__(text))


class FoldingHighlighter(rich_utils.OptionHighlighter):
    """typer's highlighter for an English run: its texts break as typer breaks them, but a run
    wider than its cell folds onto the next line instead of ending in "…" (at 60 columns
    ``play --help`` cut its example to ``greedy:go=120;remedy=15…``). Where nothing is that
    wide, the output is typer's own, byte for byte."""

    def __call__(self, text: str | Text) -> Text:
        shown = super().__call__(text)
        shown.overflow = "fold"
        return shown


@contextmanager
def _dressed(root: Command, lang: str) -> Iterator[None]:
    """Every command of the tree makes its contexts (and so its help) in ``lang``, and its usage
    line names its parts ("[OPTIONS]", "COMMAND [ARGS]...") in it."""
    context_class = _frame_context(lang)
    said = {
        "[OPTIONS]": translate("cli.frame.options_metavar", lang),
        "COMMAND [ARGS]...": translate("cli.frame.command_metavar", lang),
    }
    names = ("context_class", "options_metavar", "subcommand_metavar")
    commands = list(_walk(root))
    saved = [
        {name: getattr(command, name) for name in names if hasattr(command, name)} for command in commands
    ]
    try:
        for command, original in zip(commands, saved, strict=True):
            command.context_class = context_class
            for name, value in original.items():
                if isinstance(value, str):
                    setattr(command, name, said.get(value, value))
        yield
    finally:
        for command, original in zip(commands, saved, strict=True):
            for name, value in original.items():
                setattr(command, name, value)


def _walk(command: Command) -> Iterator[Command]:
    yield command
    for sub in getattr(command, "commands", {}).values():
        yield from _walk(sub)


def _frame_context(lang: str) -> type[Context]:
    usage = translate("cli.frame.usage", lang)

    class FrameFormatter(HelpFormatter):
        def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
            super().write_usage(prog, args, usage if prefix is None else prefix)

    class FrameContext(Context):
        formatter_class = FrameFormatter

        def __init__(self, command: Command, *args: Any, **kwargs: Any) -> None:
            super().__init__(command, *args, **kwargs)
            helper = command.get_help_option(self)
            if helper is not None:
                helper.help = translate("cli.frame.help_option", lang)
            for param in command.get_params(self):
                if isinstance(param, TyperOption | TyperArgument):
                    _type_column(param, self, lang)

    return FrameContext


def _type_column(param: TyperOption | TyperArgument, ctx: Context, lang: str) -> None:
    """The ``<int>`` column of the help in ``lang``. An option shows its ``metavar``; an
    argument's metavar would also rename it in the usage line, so its display alone is replaced."""
    shown = param.display_type_rich(ctx)
    if shown is None:
        return
    said = _TYPE.sub(lambda match: _type_word(match.group(0), lang), shown)
    if isinstance(param, TyperOption):
        param.metavar = said
    else:

        def display(ctx: Context) -> str | None:
            return said

        setattr(param, "display_type_rich", display)  # noqa: B010 - this instance's own method


_TYPE = re.compile(r"list\[(\w+)\]|\b(bool|int|float|str|path)\b")


def _type_word(text: str, lang: str) -> str:
    if text.startswith("list["):
        item = text.removeprefix("list[").removesuffix("]")
        return translate("cli.frame.type.list", lang, item=_type_word(item, lang))
    if text in {"bool", "int", "float", "str", "path"}:
        return translate(f"cli.frame.type.{text}", lang)
    return text


# typer's own English messages, as it writes them, with the catalog message each one is.
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.DOTALL), key)
    for pattern, key in (
        (r"No such command '(?P<name>.*)'\.", "cli.frame.no_such_command"),
        (r"Missing command\.", "cli.frame.missing_command"),
        (r"Got unexpected extra argument\(s\) \((?P<args>.*)\)", "cli.frame.extra_arguments"),
        (r"Option '(?P<name>.*)' requires an argument\.", "cli.frame.needs_value"),
        (r"Option '(?P<name>.*)' requires (?P<count>\d+) arguments\.", "cli.frame.needs_values"),
        (r"Option '(?P<name>.*)' does not take a value\.", "cli.frame.takes_no_value"),
        (r"Argument '(?P<name>.*)' takes (?P<count>\d+) values\.", "cli.frame.argument_values"),
        (r"\w+ (['\"])(?P<name>.*)\1 does not exist\.", "cli.frame.not_found"),
        (r"\w+ (['\"])(?P<name>.*)\1 is a file\.", "cli.frame.is_file"),
        (r"\w+ (['\"])(?P<name>.*)\1 is a directory\.", "cli.frame.is_directory"),
        (r"\w+ (['\"])(?P<name>.*)\1 is not readable\.", "cli.frame.not_readable"),
        (r"\w+ (['\"])(?P<name>.*)\1 is not writable\.", "cli.frame.not_writable"),
    )
)

# pydantic's error types behind typer's "Input should be ..." value errors.
_VALUE_ERRORS = {
    "int_parsing": "cli.frame.not_integer",
    "int_from_float": "cli.frame.not_integer",
    "int_type": "cli.frame.not_integer",
    "float_parsing": "cli.frame.not_number",
    "float_type": "cli.frame.not_number",
    "bool_parsing": "cli.frame.not_bool",
    "bool_type": "cli.frame.not_bool",
}


def frame_message(error: click_errors.ClickException, lang: str) -> str | None:
    """typer's message for ``error`` in ``lang``; None where it is not one of typer's own (our
    commands' refusals are already in the reader's language)."""
    if isinstance(error, click_errors.MissingParameter):
        return _missing(error, lang)
    if isinstance(error, click_errors.NoSuchOption):
        text = translate("cli.frame.no_such_option", lang, name=error.option_name)
        if error.possibilities:
            names = join_list(sorted(error.possibilities), lang)
            text += translate("cli.frame.possible_options", lang, names=names)
        return text
    if isinstance(error, click_errors.BadParameter):
        reason = _choice_reason(error, lang) or _value_reason(error, lang)
        hint = _param_hint(error)
        if hint is None:
            return translate("cli.frame.invalid_value", lang, reason=reason)
        return translate("cli.frame.invalid_value_for", lang, name=hint, reason=reason)
    if isinstance(error, click_errors.FileError):
        return translate("cli.frame.cannot_open", lang, name=error.ui_filename, reason=error.message)
    return _by_pattern(error.message, lang)


def _by_pattern(text: str, lang: str) -> str | None:
    for pattern, key in _PATTERNS:
        match = pattern.fullmatch(text)
        if match is not None:
            args: dict[str, Any] = match.groupdict()
            if "count" in args:
                args["count"] = int(args["count"])
            return translate(key, lang, **args)
    return None


def _choices(param: Any, ctx: Context | None) -> str | None:
    """A choice parameter's choices as typer shows them (an enum by its values), else None."""
    desc = getattr(param, "type_descriptor", None)
    if desc is None or not desc.is_choice or not desc.choices:
        return None
    return ", ".join(normalize_choice_value(choice, desc.case_sensitive, ctx) for choice in desc.choices)


def _choice_reason(error: click_errors.BadParameter, lang: str) -> str | None:
    """A value that is none of a choice parameter's choices, with the choices."""
    choices = _choices(error.param, error.ctx)
    details = getattr(error.__cause__, "errors", None)
    if choices is None or not callable(details) or not details():
        return None
    return translate("cli.frame.not_a_choice", lang, value=details()[0].get("input"), choices=choices)


def _value_reason(error: click_errors.BadParameter, lang: str) -> str:
    """Why a value was refused: pydantic's conversion errors by their type, typer's path checks
    by their wording; anything else (our own refusals) as given."""
    cause = error.__cause__
    errors = getattr(cause, "errors", None)
    if callable(errors):
        details = errors()
        if details:
            key = _VALUE_ERRORS.get(str(details[0].get("type")))
            value = details[0].get("input")
            if key is not None:
                return translate(key, lang, value=value)
            kind = type(value).__name__ if value is not None else "str"
            return translate("cli.frame.not_valid", lang, value=value, type=_type_word(kind, lang))
    return _by_pattern(error.message, lang) or error.message


def _param_hint(error: click_errors.BadParameter) -> str | None:
    """How typer names the refused parameter ("'--players' / '-p'"), if it names one."""
    hint = error.param_hint
    if hint is None and error.param is not None:
        hint = error.param.get_error_hint()
    if hint is not None and not isinstance(hint, str):
        hint = " / ".join(repr(item) for item in hint)
    return hint


def _missing(error: click_errors.MissingParameter, lang: str) -> str:
    param = error.param
    hint = _param_hint(error)
    kind = error.param_type or (param.param_type_name if param is not None else "option")
    key = "cli.frame.missing_argument" if kind == "argument" else "cli.frame.missing_option"
    text = translate(key, lang, name=hint or "")
    choices = _choices(param, error.ctx)
    if choices is not None:
        text += translate("cli.frame.choose_from", lang, choices=choices)
    return text
