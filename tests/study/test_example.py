"""The learning example runs (a smoke version: a few games) and its notebook is well formed."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("gymnasium", reason="the example needs the [rl] extra")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_example() -> object:
    spec = importlib.util.spec_from_file_location("train_touring_pg", EXAMPLES / "train_touring_pg.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_smoke_run_trains_and_reports_intervals(tmp_path: Path) -> None:
    example = load_example()
    out = tmp_path / "figures.json"
    report = example.main(["--smoke", "--out", str(out)])
    assert report["episodes"] == 32 and len(report["evaluation"]) == 2
    for row in report["evaluation"]:
        low, high = row["ci95"]
        assert 0 <= low <= row["win_rate"] <= high <= 1 and row["games"] == 10
    saved = json.loads(out.read_text())
    assert set(saved["weights"]) == {"w1", "b1", "w2", "b2", "wv", "bv"}


def test_policy_gradient_is_the_true_gradient() -> None:
    """The hand-written backward pass agrees with finite differences of the loss."""
    import numpy as np

    example = load_example()
    policy = example.Policy(inputs=5, actions=4, hidden=3, seed=1)
    rng = np.random.default_rng(0)
    for name in policy.params:
        policy.params[name] = policy.params[name] + rng.normal(0, 0.3, policy.params[name].shape)
    x = rng.normal(size=(6, 5))
    mask = np.array([[1, 1, 0, 1]] * 3 + [[0, 1, 1, 1]] * 3, dtype=bool)
    actions = np.array([0, 1, 3, 1, 2, 3])
    returns = rng.normal(size=6)
    grads, _ = policy.gradients(x, mask, actions, returns, 0.0, 0.0)

    _, _, value0 = policy.forward(x, mask)
    adv0 = returns - value0
    adv_fixed = (adv0 - adv0.mean()) / (adv0.std() + 1e-8)

    def loss() -> float:
        # The advantage is a constant for the policy's gradient (stop-gradient), as in the learner.
        _, probs, _ = policy.forward(x, mask)
        return float(-(adv_fixed * np.log(probs[np.arange(6), actions])).mean())

    eps = 1e-6
    w = policy.params["w2"]
    numeric = np.zeros_like(w)
    for i in np.ndindex(w.shape):
        old = w[i]
        w[i] = old + eps
        up = loss()
        w[i] = old - eps
        down = loss()
        w[i] = old
        numeric[i] = (up - down) / (2 * eps)
    assert np.allclose(numeric, grads["w2"], atol=1e-6)


def test_notebook_is_valid_json_with_code() -> None:
    notebook = json.loads((EXAMPLES / "train_touring_pg.ipynb").read_text())
    assert notebook["nbformat"] == 4
    code = "".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code")
    assert "import train_touring_pg" in code and "pg.evaluate" in code


@pytest.mark.parametrize(
    "argv",
    [["--opponent", "genius"], ["--eval-games", "0"], ["--episodes", "-1"], ["--episodes", "x"]],
    ids=" ".join,
)
def test_bad_arguments_get_a_usage_message_not_a_traceback(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # before: --opponent genius ended in SingleSeatEnv's ValueError traceback after setup, and
    # --eval-games 0 in a ZeroDivisionError after training
    with pytest.raises(SystemExit) as exit_info:
        load_example().main(argv)
    assert exit_info.value.code == 2
    assert f"argument {argv[0]}" in capsys.readouterr().err
