"""Simulation throughput of every game on 1 and 2 local processes and through Ray, and the ratios.

    python -m benchmarks.scaling [--games touring,mexican-train] [--scale 1.0] [--no-ray] [--bots random]

Each game plays the same seeded games on every backend (``tabletrek.sim.simulate``), so the
outcomes must agree: the script checks that they do and prints games/s per backend with the
ratio to one process. Ray is started once on this machine (127.0.0.1 only) and its start-up is
not counted; the batches are sized so that every worker gets several. On a shared 2-core machine
the 2-process ratio is bounded by what the other tenants leave: the load average is printed
beside the figures.
"""

from __future__ import annotations

import argparse
import os
import time

import tabletrek
from tabletrek.sim import simulate

# Games per run, chosen so each run takes a few seconds on one core with random bots (100 for a game
# not listed).
BASE_GAMES = {"touring": 300, "mexican-train": 40, "double-crossing": 40, "codenames-duet": 300}


def timed(
    name: str, n: int, bots: list[str], jobs: int, ray: str | None
) -> tuple[float, list[tuple[int, ...]]]:
    start = time.perf_counter()
    batch = max(1, n // (4 * jobs))
    result = simulate(name, n, bots, seed=1, jobs=jobs, ray=ray, batch_size=batch)
    return time.perf_counter() - start, [o.winners for o in result.outcomes]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--games", default=",".join(tabletrek.games()), help="games to measure, comma-separated (default all)"
    )
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the number of games per run")
    parser.add_argument("--bots", default="random", help="bots, comma-separated (default: random)")
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray backend")
    args = parser.parse_args()
    names = [g.strip() for g in args.games.split(",") if g.strip()]
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    use_ray = not args.no_ray
    if use_ray:
        from tabletrek.sim.backend import connect_ray

        t0 = time.perf_counter()
        connect_ray("local")
        print(f"ray: started in {time.perf_counter() - t0:.1f} s (not counted below)")
    print(f"cpus: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.2f}")
    header = f"{'game':16} {'games':>6} {'1 proc g/s':>11} {'2 proc g/s':>11} {'ratio':>6}"
    print(header + (f" {'ray g/s':>9} {'ratio':>6}" if use_ray else ""))
    for name in names:
        if name not in tabletrek.games():
            raise SystemExit(f"unknown game {name!r}")
        n = max(4, int(BASE_GAMES.get(name, 100) * args.scale))
        # Warm-up (not timed): loads the game's data here and in Ray's long-lived workers.
        timed(name, 4, bots, 1, None)
        if use_ray:
            timed(name, 8, bots, 2, "local")
        one, reference = timed(name, n, bots, 1, None)
        two, outcome2 = timed(name, n, bots, 2, None)
        assert outcome2 == reference, f"{name}: 2 processes played different games"
        line = f"{name:16} {n:6d} {n / one:11.1f} {n / two:11.1f} {one / two:6.2f}"
        if use_ray:
            ray_time, outcome_ray = timed(name, n, bots, 2, "local")
            assert outcome_ray == reference, f"{name}: Ray played different games"
            line += f" {n / ray_time:9.1f} {one / ray_time:6.2f}"
        print(line, flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f} (other tenants share these cores)")
    if use_ray:
        import ray

        ray.shutdown()


if __name__ == "__main__":
    main()
