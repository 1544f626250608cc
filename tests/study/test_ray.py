"""The Ray backend gives the same games as local processes (a local Ray on 127.0.0.1)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tabletrek.sim import simulate
from tabletrek.sim.backend import RAY_LOCAL_ENV, Backend, connect_ray
from tabletrek.sim.tournament import tournament

# Ray reads these when it is imported: loopback only, no usage reports, no token file.
for _key, _value in RAY_LOCAL_ENV.items():
    os.environ.setdefault(_key, _value)
ray = pytest.importorskip("ray", reason="the Ray backend needs the [scale] extra")

pytestmark = pytest.mark.slow  # starts Ray (a few seconds, ~0.5 GB); still run in CI, kept small


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    connect_ray("local")  # loopback only, no usage stats, no auth token file
    try:
        yield
    finally:
        ray.shutdown()


def test_local_ray_stays_on_loopback(local_ray: None) -> None:
    assert {node["NodeManagerAddress"] for node in ray.nodes()} == {"127.0.0.1"}


def test_simulate_on_ray_equals_local(local_ray: None) -> None:
    local = simulate("touring", 6, ["greedy", "random"], seed=12, keep_records=True)
    remote = simulate(
        "touring", 6, ["greedy", "random"], seed=12, keep_records=True, ray="local", batch_size=2
    )
    assert [o.record for o in remote.outcomes] == [o.record for o in local.outcomes]
    assert [o.winners for o in remote.outcomes] == [o.winners for o in local.outcomes]


def test_tournament_on_ray_equals_local(local_ray: None) -> None:
    local = tournament("touring", ["random", "greedy"], 4, seed=3)
    remote = tournament("touring", ["random", "greedy"], 4, seed=3, backend=Backend(ray_address="local"))
    assert remote.to_dict() == local.to_dict()
