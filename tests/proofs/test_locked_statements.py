"""The key statements are locked as literal text (tests/proofs/locked_statements.py).

Pins are hashes the checker can regenerate: re-pinning every theorem after changing
what one says (C1 narrowed to affine eigenfunctions, a theorem restated as ``True``)
passes ``lejepa-id verify``. The committed ``formal/statements.txt`` must also equal
the literal text of the locks, which no command regenerates. The end-to-end case
(change a definition in Coq, re-pin everything, verify passes, the locks fail) is
``tests/test_verify.py::test_repin_after_a_change_of_meaning_fails_the_locks``.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from lejepa_id.proofs import statements

ROOT = Path(__file__).resolve().parents[2]
STATEMENTS = ROOT / "formal" / statements.FILENAME


def load_locks():
    """The lock module, loaded by path (tests/ is not a package)."""
    spec = importlib.util.spec_from_file_location(
        "locked_statements", Path(__file__).with_name("locked_statements.py")
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


locks = load_locks()


def test_the_locks_cover_the_key_statements():
    names = set(locks.THEOREMS)
    assert {
        "LejepaId.Converse.hermite_spectrum",  # C1, the spectral gap
        "LejepaId.Converse.gaussian_first_eigenfunction",
        "LejepaId.Mehler.model_alignment_ou",
        "LejepaId.Mehler.forward_identifiability_model_ou",
        "LejepaId.Mehler.approx_identifiability_model_ou",
        "LejepaId.Dirichlet.dirichlet_identifiability_n",
        "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss",
        "LejepaId.GaussianExpectation.gexpn_faithful",
        "LejepaId.GaussianExpectation.gauss_log_volume_zero",
        "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss_density",
        "LejepaId.GaussianExpectation.gauss_whitened_energy",
        "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss_whitened",
        "LejepaId.IntegrationOrder.gexpn_sumprod_order",
        "LejepaId.IntegrationOrder.model_alignment_order",
        "LejepaId.GaussFubini.gexp_fubini",
        "LejepaId.GaussFubiniN.gexpn_fclass_order",
        "LejepaId.GaussFubiniN.fclass_order_gclass",
        "LejepaId.Planning.planning_cost_equal",
        "LejepaId.Planning.planning_minimizers_coincide",
        "LejepaId.Planning.planning_values_coincide",
        "LejepaId.Planning.stochastic_values_coincide",
    } <= names
    # Every definition a locked theorem depends on is locked too.
    assert {d for ds in locks.USES.values() for d in ds} == set(locks.DEFINITIONS)
    assert "LejepaId.Converse.is_eigenfunction" in locks.USES["LejepaId.Converse.hermite_spectrum"]


def test_committed_statements_match_the_locks():
    assert locks.mismatches(STATEMENTS.read_text()) == []


def _repinned(text: str, name: str, old: str, new: str) -> str:
    """``text`` with one change of meaning and every pin recomputed, as
    ``lejepa-id verify --pins --statements`` would leave it."""
    assert old in text
    changed = text.replace(old, new)
    blocks, defs = statements.parse(changed)
    assert statements.block_pin(blocks[("theorem", name)], defs) != statements.block_pin(
        statements.parse(text)[0][("theorem", name)], statements.parse(text)[1]
    )
    return changed


def test_c1_narrowed_and_repinned_fails_the_locks():
    # C1's eigenfunctions narrowed to affine ones: the printed definition changes,
    # and so do the pins of every theorem using it; regenerated, they agree again.
    text = STATEMENTS.read_text()
    blocks, defs = statements.parse(text)
    old = defs["LejepaId.Converse.is_eigenfunction"]
    narrowed = old.replace(
        "Converse.is_eigenfunction =", "Converse.is_eigenfunction = (* affine only *)", 1
    )
    head = "== definition LejepaId.Converse.is_eigenfunction\n"
    start = text.index(head) + len(head)
    end = text.index("\n", start)
    changed = _repinned(text, "LejepaId.Converse.hermite_spectrum", text[start:end], narrowed)
    found = locks.mismatches(changed)
    eig = "LejepaId.Converse.is_eigenfunction"
    assert f"LejepaId.Converse.hermite_spectrum: definition {eig} differs from the locked text" in (
        found
    )


def test_theorem_restated_as_true_and_repinned_fails_the_locks():
    text = STATEMENTS.read_text()
    name = "LejepaId.Dirichlet.dirichlet_identifiability_n"
    blocks, _ = statements.parse(text)
    head = f"== theorem {name} | "
    start = text.index("\n", text.index(head)) + 1
    end = text.index("\n", start)
    changed = _repinned(text, name, text[start:end], "True")
    assert f"{name}: printed statement differs from the locked text" in locks.mismatches(changed)


def _definition_made_trivial_fails_the_locks(
    definition: str, trivial: str, theorems: tuple[str, ...]
) -> None:
    """Replace ``definition``'s printed body by ``trivial`` and re-pin each theorem that
    uses it: the audit would pass, the literal locks must not."""
    text = STATEMENTS.read_text()
    head = f"== definition {definition}\n"
    start = text.index(head) + len(head)
    end = text.index("\n", start)
    for name in theorems:
        changed = _repinned(text, name, text[start:end], trivial)
        want = f"{name}: definition {definition} differs from the locked text"
        assert want in locks.mismatches(changed)


def test_order_of_integration_made_trivial_and_repinned_fails_the_locks():
    # vperm made the identity: every order-of-integration theorem would then say
    # gexpn n F = gexpn n F.
    _definition_made_trivial_fails_the_locks(
        "LejepaId.IntegrationOrder.vperm",
        "IntegrationOrder.vperm = fun (_ : forall _ : nat, nat) (z : Prelude.vec) => z : "
        "forall (_ : forall _ : nat, nat) (_ : Prelude.vec), Prelude.vec",
        (
            "LejepaId.IntegrationOrder.gexpn_sumprod_order",
            "LejepaId.IntegrationOrder.model_alignment_order",
        ),
    )


def test_density_premise_made_trivial_and_repinned_fails_the_locks():
    # D3 is derived from the Jacobian density identity: were that definition made
    # True, the derived E ln det (J^T J) = 0 would rest on nothing.
    _definition_made_trivial_fails_the_locks(
        "LejepaId.GaussianExpectation.gauss_jacobian_density",
        "GaussianExpectation.gauss_jacobian_density = fun (n : nat) (h : forall _ : "
        "Prelude.vec, Prelude.vec) (J : forall _ : Prelude.vec, Prelude.mat) => True : "
        "forall (_ : nat) (_ : forall _ : Prelude.vec, Prelude.vec) (_ : forall _ : "
        "Prelude.vec, Prelude.mat), Prop",
        (
            "LejepaId.GaussianExpectation.gauss_log_volume_zero",
            "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss_density",
            "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss_whitened",
        ),
    )
