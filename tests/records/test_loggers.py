"""Curves of equal length, the loggers fed at each evaluation, and --logger."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from lejepa_id import RunConfig, train
from lejepa_id.cli.main import main
from lejepa_id.records.io import read_json
from lejepa_id.records.loggers import CSVLogger, Logger, Member, TensorBoardLogger
from lejepa_id.records.result import aligned_curves, curves_frame

CONFIGS = str(Path(__file__).parents[2] / "configs")
TINY = dict(
    steps=40,
    batch=64,
    eval_size=300,
    eval_every=20,
    eval_every_early=10,
    early_until=20,
    hidden=16,
    num_directions=16,
    device="cpu",
)
CLI_FAST = [
    *("--seed", "0", "--no-progress"),
    *("--set", "steps=30", "--set", "eval_size=300", "--set", "eval_every=10"),
    *("--set", "hidden=16", "--set", "num_directions=16", "--set", "scatter=0"),
]


class Recorder(Logger):
    def __init__(self) -> None:
        self.started: list[Member] = []
        self.rows: list[tuple[str, int, dict[str, float]]] = []
        self.closed = 0

    def start(self, member: Member) -> None:
        self.started.append(member)

    def log(self, member, step, metrics) -> None:
        self.rows.append((member.label, step, dict(metrics)))

    def close(self) -> None:
        self.closed += 1


@pytest.fixture(scope="module")
def trained():
    recorder = Recorder()
    result = train(RunConfig(**TINY, seed=3), progress=False, loggers=[recorder])
    return result, recorder


def test_every_curve_has_one_entry_per_step(trained):
    result, _ = trained
    steps = result.curves["step"]
    assert steps == [10, 20, 40]
    assert {len(v) for v in result.curves.values()} == {len(steps)}
    frame = pd.DataFrame(result.curves)
    assert list(frame["step"]) == steps
    # The final-only metrics (mcc, the 2D grid scores) are NaN before the last row.
    for key in ("mcc", "grid_r2_hz"):
        assert frame[key].iloc[:-1].isna().all() and math.isfinite(frame[key].iloc[-1])
        assert frame[key].iloc[-1] == result.metrics[key]
    assert frame["r2_hz"].notna().all()


def test_saved_curves_read_back_as_the_same_table(trained, tmp_path):
    result, _ = trained
    result.save(tmp_path)
    stored = read_json(tmp_path / "result.json")["curves"]
    assert stored["mcc"][0] is None  # NaN is null in JSON
    pd.testing.assert_frame_equal(curves_frame(stored), pd.DataFrame(result.curves))


def test_result_files_of_before_the_padding_are_read_aligned():
    old = {"step": [10, 20, 40], "loss": [0.3, 0.2, 0.1], "mcc": [0.9], "sigreg": [1, "inf", None]}
    frame = curves_frame(old)
    assert len(frame) == 3 and frame["mcc"].iloc[2] == 0.9 and frame["mcc"].iloc[:2].isna().all()
    assert frame["sigreg"].iloc[1] == math.inf and math.isnan(frame["sigreg"].iloc[2])
    assert aligned_curves({}) == {}


def test_loggers_see_every_evaluation_as_the_curves_do(trained):
    result, recorder = trained
    assert [m.label for m in recorder.started] == ["run0"] and recorder.closed == 1
    assert [step for _, step, _ in recorder.rows] == result.curves["step"]
    for i, (_, _, row) in enumerate(recorder.rows):
        for key, value in row.items():
            assert result.curves[key][i] == value, key


def test_csv_logger_writes_the_curves_table(tmp_path):
    result = train(
        RunConfig(**TINY, seed=1), progress=False, names=["a"], loggers=[CSVLogger(tmp_path)]
    )
    written = pd.read_csv(tmp_path / "a" / "curves.csv")
    pd.testing.assert_frame_equal(written, pd.DataFrame(result.curves), check_dtype=False)


def test_csv_logger_writes_one_file_per_init(tmp_path):
    train(
        RunConfig(**TINY, seed=1, inits=2),
        progress=False,
        names=["b"],
        loggers=[CSVLogger(tmp_path)],
    )
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == [
        "curves-init0.csv",
        "curves-init1.csv",
    ]


def _events(folder: Path):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(folder))
    events.Reload()
    return events


def _hparams(events) -> dict:
    """The HParams plugin's session: the hyperparameters it holds, and its metric tags."""
    from tensorboard.plugins.hparams import plugin_data_pb2

    content = events.PluginTagToContent("hparams")
    start = plugin_data_pb2.HParamsPluginData.FromString(
        content["_hparams_/session_start_info"]
    ).session_start_info
    experiment = plugin_data_pb2.HParamsPluginData.FromString(
        content["_hparams_/experiment"]
    ).experiment
    values = {}
    for key, value in start.hparams.items():
        kind = value.WhichOneof("kind")
        values[key] = getattr(value, kind)
    return {"hparams": values, "metrics": [m.name.tag for m in experiment.metric_infos]}


def test_tensorboard_groups_train_eval_and_final_metrics_with_hparams(tmp_path):
    from tensorboard.backend.event_processing.event_multiplexer import EventMultiplexer

    result = train(
        RunConfig(**TINY, seed=1),
        progress=False,
        names=["tb"],
        loggers=[TensorBoardLogger(tmp_path)],
    )
    # The event files are the run's folder's own: TensorBoard names the run "tb".
    runs = EventMultiplexer().AddRunsFromDirectory(str(tmp_path))
    runs.Reload()
    assert list(runs.Runs()) == ["tb"]
    events = _events(tmp_path / "tb")
    tags = events.Tags()["scalars"]
    assert tags and all(t.split("/")[0] in ("train", "eval", "metrics") for t in tags)
    assert {"train/loss", "train/lr", "train/alignment", "train/sigreg"} <= set(tags)
    assert "eval/loss" not in tags and "eval/lr" not in tags  # logged once, under train/
    # 40 steps: the training loss at every step; at an evaluation the same value the
    # curves hold (the last step's loss).
    loss = {e.step: e.value for e in events.Scalars("train/loss")}
    assert sorted(loss) == list(range(1, 41))
    assert [loss[s] for s in result.curves["step"]] == pytest.approx(
        result.curves["loss"], rel=1e-6
    )
    r2 = events.Scalars("eval/r2_hz")
    assert [e.step for e in r2] == result.curves["step"]
    assert [e.value for e in r2] == pytest.approx(result.curves["r2_hz"], rel=1e-6)
    assert [e.step for e in events.Scalars("eval/mcc")] == [40]  # NaN rows are not logged
    (final,) = events.Scalars("metrics/r2_hz")
    assert final.step == 40 and final.value == pytest.approx(result.metrics["r2_hz"], rel=1e-6)
    # The HParams tab: the run's config beside its final metrics.
    hp = _hparams(events)
    assert hp["hparams"]["mode"] == "lejepa" and hp["hparams"]["steps"] == 40
    assert hp["hparams"]["seed"] == 1 and hp["hparams"]["mixing"] == "spiral"
    assert {"metrics/r2_hz", "metrics/mcc", "metrics/loss"} <= set(hp["metrics"])


def test_training_loss_cadence_holds_about_a_thousand_points():
    from lejepa_id.records.loggers import train_log_every

    assert [train_log_every(n) for n in (1, 40, 1999, 2000, 20_000, 100_000)] == [
        1, 1, 1, 2, 20, 100,
    ]  # fmt: skip


def test_tensorboard_one_run_per_init_and_a_retrain_replaces_the_old_events(tmp_path):
    cfg = RunConfig(**{**TINY, "steps": 20, "eval_every_early": 10}, seed=1, inits=2)
    for _ in range(2):  # the same run trained twice into one folder: no doubled events
        train(cfg, progress=False, names=["b"], loggers=[TensorBoardLogger(tmp_path)])
    for k in (0, 1):
        events = _events(tmp_path / "b" / f"init{k}")
        steps = [e.step for e in events.Scalars("train/loss")]
        assert steps == list(range(1, 21))
        assert [e.step for e in events.Scalars("eval/r2_hz")] == [10, 20]


class Quiet(Logger):
    """Takes evaluations only: the trainer never reads losses back for it."""

    def __init__(self) -> None:
        self.rows = 0

    def log(self, member, step, metrics) -> None:
        self.rows += 1


def test_training_losses_go_only_to_loggers_that_take_them():
    from lejepa_id.records.loggers import LoggerHub

    assert not LoggerHub([Quiet(), CSVLogger("x")]).wants_train
    assert not LoggerHub([LoggerHub([Quiet()])]).wants_train
    taker = Recorder()
    taker.log_train = lambda member, step, losses: None  # a duck-typed addition
    assert not LoggerHub([taker]).wants_train  # an instance attribute is not a method

    class Taker(Recorder):
        def __init__(self) -> None:
            super().__init__()
            self.train_rows: list[tuple[int, dict]] = []
            self.final: dict = {}

        def log_train(self, member, step, losses) -> None:
            self.train_rows.append((step, dict(losses)))

        def finish(self, member, metrics) -> None:
            self.final = dict(metrics)

    taker = Taker()
    assert LoggerHub([LoggerHub([Quiet(), taker])]).wants_train
    result = train(RunConfig(**TINY, seed=4), progress=False, loggers=[taker])
    assert [s for s, _ in taker.train_rows] == list(range(1, 41))
    assert set(taker.train_rows[0][1]) == {"loss", "alignment", "sigreg", "lr"}
    assert taker.final["r2_hz"] == result.metrics["r2_hz"]


def test_wandb_logger_offline_groups_like_tensorboard(tmp_path, monkeypatch):
    from wandb_records import history_and_summary

    from lejepa_id.records.loggers import WandbLogger

    monkeypatch.setenv("WANDB_MODE", "offline")
    monkeypatch.setenv("WANDB_DIR", str(tmp_path / "wandb-dir"))
    monkeypatch.setenv("WANDB_SILENT", "true")
    monkeypatch.setenv("WANDB_CONFIG_DIR", str(tmp_path / "wandb-config"))
    monkeypatch.setenv("WANDB_CACHE_DIR", str(tmp_path / "wandb-cache"))
    result = train(
        RunConfig(**TINY, seed=1), progress=False, names=["w"], loggers=[WandbLogger(tmp_path)]
    )
    runs = list((tmp_path / "w").rglob("offline-run-*"))
    assert len(runs) == 1
    (file,) = runs[0].glob("*.wandb")
    history, summary, config = history_and_summary(file)
    keys = {k for row in history for k in row if not k.startswith("_")}
    assert keys and all(k.split("/")[0] in ("train", "eval") for k in keys)
    assert {"train/loss", "train/lr", "eval/r2_hz"} <= keys and "eval/loss" not in keys
    train_steps = sorted({row["_step"] for row in history if "train/loss" in row})
    assert train_steps == list(range(1, 41))
    evals = [(row["_step"], row["eval/r2_hz"]) for row in history if "eval/r2_hz" in row]
    assert [s for s, _ in evals] == result.curves["step"]
    assert summary["metrics/r2_hz"] == pytest.approx(result.metrics["r2_hz"], rel=1e-9)
    assert config["mode"] == "lejepa" and config["steps"] == 40


def test_cli_run_with_csv_logger_then_curves_png(tmp_path, capsys):
    code = main(
        [
            "run",
            CONFIGS + "/2d.yaml",
            "--run",
            "spiral_lejepa",
            "--out",
            str(tmp_path),
            "--logger",
            "csv",
            *CLI_FAST,
        ]
    )
    assert code == 0
    run = tmp_path / "2d" / "spiral_lejepa-seed0"
    result = json.loads((run / "result.json").read_text())
    written = pd.read_csv(run / "curves.csv")
    assert list(written["step"]) == result["curves"]["step"] == [10, 20, 30]
    capsys.readouterr()
    assert main(["curves", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "1 run\n" in out and (tmp_path / "curves.png").stat().st_size > 10_000
    assert (
        main(["curves", str(run), "--metrics", "loss,mcc", "--out", str(tmp_path / "c.png")]) == 0
    )
    assert (tmp_path / "c.png").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["curves", "{tmp}/missing"], "results directory '{tmp}/missing' does not exist"),
        (["curves", "{tmp}"], "no training curves under '{tmp}'"),
    ],
)
def test_curves_bad_dir_one_line(tmp_path, capsys, args, message):
    args = [a.format(tmp=tmp_path) for a in args]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message.format(tmp=tmp_path) in err
    assert list(tmp_path.iterdir()) == []


def test_curves_unknown_metric_names_the_allowed_ones(tmp_path, capsys):
    result = train(RunConfig(**TINY, seed=1), progress=False)
    result.save(tmp_path / "r")
    assert main(["curves", str(tmp_path), "--metrics", "r2"]) == 2
    err = capsys.readouterr().err
    assert "--metrics 'r2' is not in these curves; allowed:" in err and "r2_hz" in err
    assert not (tmp_path / "curves.png").exists()


def test_sweep_logs_each_run_and_refuses_loggers_for_reacher(tmp_path, capsys):
    code = main(
        [
            "sweep",
            "2d",
            "--out",
            str(tmp_path),
            "--jobs",
            "1",
            "--logger",
            "csv",
            "--set",
            "runs=[spiral_lejepa]",
            "--set",
            "seeds=[0,1]",
            *CLI_FAST[2:],
        ]
    )
    assert code == 0, capsys.readouterr().err
    csvs = sorted(p.parent.name for p in (tmp_path / "2d").rglob("curves.csv"))
    assert csvs == ["spiral_lejepa-seed0", "spiral_lejepa-seed1"]
    assert (
        main(
            [
                "sweep",
                CONFIGS + "/reacher_grid.yaml",
                "--out",
                str(tmp_path / "r"),
                "--logger",
                "csv",
            ]
        )
        == 2
    )
    assert "--logger csv: reacher runs feed no trackers" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize(
    "env, message",
    [
        ({"WANDB_MODE": "bogus"}, "WANDB_MODE='bogus' is not one of online, offline"),
        ({"WANDB_MODE": "online"}, "--logger wandb: no W&B API key"),
        (
            {
                "WANDB_MODE": "online",
                "WANDB_API_KEY": "x" * 40,
                "WANDB_BASE_URL": "http://127.0.0.1:9",
            },  # fmt: skip
            "--logger wandb: cannot reach http://127.0.0.1:9",
        ),
    ],
)
@pytest.mark.parametrize("command", ["run", "sweep"])
def test_wandb_that_cannot_log_is_one_line_before_anything_is_written(
    tmp_path, monkeypatch, capsys, env, message, command
):
    monkeypatch.delenv("WANDB_API_KEY", raising=False)
    monkeypatch.setenv("NETRC", str(tmp_path / "no-netrc"))
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    out = tmp_path / "out"
    argv = [command, CONFIGS + "/2d.yaml", "--out", str(out), "--logger", "wandb", *CLI_FAST]
    if command == "run":
        argv += ["--run", "spiral_lejepa"]
    else:
        argv = [a for a in argv if a != "--seed" and a != "0"] + ["--jobs", "1"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and not out.exists()
    if "W&B" in message or "reach" in message:
        assert "WANDB_MODE=offline" in err[0]


def test_a_wandb_init_that_fails_is_one_line(tmp_path, monkeypatch):
    import wandb

    from lejepa_id.errors import UsageError
    from lejepa_id.records.loggers import WandbLogger

    def refuse(**_kwargs):
        raise wandb.errors.CommError("Run initialization has timed out after 20.0 sec.\nmore")

    monkeypatch.setattr(wandb, "init", refuse)
    with pytest.raises(UsageError, match="could not start a run: CommError: Run init") as caught:
        WandbLogger(tmp_path).start(Member("w"))
    assert "\n" not in str(caught.value)


class StopTrainingError(Exception):
    pass


def _stop_at(step):
    def on_eval(done, _rows):
        if done == step:
            raise StopTrainingError

    return on_eval


def _scalars(folder: Path) -> dict[str, list[tuple[int, float]]]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(folder))
    events.Reload()
    return {t: [(e.step, e.value) for e in events.Scalars(t)] for t in events.Tags()["scalars"]}


def test_csv_and_tensorboard_continue_from_the_checkpoint_as_an_uninterrupted_run(
    tmp_path, monkeypatch
):
    from lejepa_id.training.checkpoints import CHECKPOINT_VAR

    monkeypatch.setenv(CHECKPOINT_VAR, "32")
    cfg = RunConfig(**{**TINY, "steps": 112, "eval_every": 16, "eval_every_early": 16}, seed=2)

    def loggers(root):
        return [CSVLogger(root), TensorBoardLogger(root)]

    train(cfg, progress=False, names=["r"], loggers=loggers(tmp_path / "whole"))
    ckpt = tmp_path / "r.pt"
    with pytest.raises(StopTrainingError):
        # Stopped at the evaluation of step 96 (before its rows): the logs hold steps
        # 16..80, the checkpoint step 64.
        train(cfg, progress=False, names=["r"], loggers=loggers(tmp_path / "cut"),
              checkpoint=ckpt, on_eval=_stop_at(96))  # fmt: skip
    assert list(pd.read_csv(tmp_path / "cut" / "r" / "curves.csv")["step"])[-1] == 80
    train(cfg, progress=False, names=["r"], loggers=loggers(tmp_path / "cut"), checkpoint=ckpt)
    whole, cut = (tmp_path / k / "r" for k in ("whole", "cut"))
    assert (cut / "curves.csv").read_text() == (whole / "curves.csv").read_text()
    assert list(pd.read_csv(cut / "curves.csv")["step"]) == [16, 32, 48, 64, 80, 96, 112]
    assert _scalars(cut) == _scalars(whole)
    assert "train/loss" in _scalars(whole) and "metrics/r2_hz" in _scalars(whole)


def test_wandb_continues_the_members_run_on_resume(tmp_path, monkeypatch):
    import wandb

    from lejepa_id.records.loggers import WandbLogger

    calls = []

    class FakeRun:
        def log(self, *a, **k):
            pass

        def finish(self):
            pass

    monkeypatch.setattr(wandb, "init", lambda **kw: calls.append(kw) or FakeRun())
    WandbLogger(tmp_path).start(Member("w"))
    WandbLogger(tmp_path).resume(Member("w"), 64)
    assert calls[0]["resume"] is None and calls[1]["resume"] == "allow"
    assert calls[0]["id"] == calls[1]["id"] == (tmp_path / "w" / ".wandb-id").read_text()
