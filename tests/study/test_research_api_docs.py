"""``help()`` on the public research API shows our own documentation. (Before, ``help(SingleSeatEnv)``
opened with Gymnasium's "The main Gymnasium class for implementing Reinforcement Learning Agents
environments", the PettingZoo classes with PettingZoo's, and ``codec_for``, ``env_name`` and the
two layout functions had no docstring at all.)"""

from __future__ import annotations

import importlib
import inspect

import pytest

pytest.importorskip("pettingzoo", reason="the RL face needs the [rl] extra")


@pytest.mark.parametrize("name", importlib.import_module("tabletrek.rl").__all__)
def test_every_public_rl_name_has_its_own_docstring(name: str) -> None:
    value = getattr(importlib.import_module("tabletrek.rl"), name)
    # the class's own __doc__, not one inherited from Gymnasium or PettingZoo
    doc = value.__doc__ if inspect.isclass(value) else inspect.getdoc(value)
    assert doc and doc.strip(), f"tabletrek.rl.{name} has no docstring"
    assert "Gymnasium class for implementing" not in doc
    assert "AECEnv steps agents" not in doc


def test_vector_env_documents_its_arguments_and_step_its_refusals() -> None:
    pytest.importorskip("numba", reason="vector_env needs the [search] extra")
    from tabletrek.rl.vector import BatchEnv, vector_env

    doc = inspect.getdoc(vector_env) or ""
    for word in ("players", "seed", "copy", "docs/vector.md"):
        assert word in doc
    assert "ValueError" in (inspect.getdoc(BatchEnv.step) or "")
