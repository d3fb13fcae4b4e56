"""Key statements of the development, locked as literal text.

Each entry is what Coq prints (``Set Printing All``, every printing option reset) for
a key theorem, the project definitions it depends on, and their printed text, exactly
as committed in ``formal/statements.txt``. The pins of ``theorems.txt`` are hashes that
anyone can regenerate; regenerating every pin after changing what a theorem says passes
``lejepa-id verify``. These literals do not regenerate: such a change fails
``tests/proofs/test_locked_statements.py`` until this file is edited by hand, a diff in
which the reviewer reads the new meaning. Never generate this file from the tree.
"""

from __future__ import annotations

#: Theorem -> its printed statement.
THEOREMS: dict[str, str] = {
    "LejepaId.Converse.hermite_spectrum": (
        "forall (K c m : Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "Rdefinitions.RbaseSymbolsImpl.Rlt (Rdefinitions.IZR BinNums.Z0) K) (_ : "
        "Rdefinitions.RbaseSymbolsImpl.Rlt (Rdefinitions.IZR BinNums.Z0) c) (g : forall _ : "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R) (mu : "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : Converse.is_eigenfunction "
        "(Converse.gaussian_form K c m) g mu) (_ : Converse.nonconstant g), Rdefinitions.Rle "
        "c mu"
    ),
    "LejepaId.Converse.gaussian_first_eigenfunction": (
        "forall (K c m : Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "Rdefinitions.RbaseSymbolsImpl.Rlt (Rdefinitions.IZR BinNums.Z0) K) (_ : "
        "Rdefinitions.RbaseSymbolsImpl.Rlt (Rdefinitions.IZR BinNums.Z0) c), "
        "Converse.first_nonconst_eigenfunction (Converse.gaussian_form K c m) (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => Rdefinitions.Rminus x m) c"
    ),
    "LejepaId.Mehler.model_alignment_ou": (
        "forall (n : nat) (h : HermiteModel.HEncoder n) (rho : "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : and (Rdefinitions.Rle (Rdefinitions.IZR "
        "(BinNums.Zneg BinNums.xH)) rho) (Rdefinitions.Rle rho (Rdefinitions.IZR "
        "(BinNums.Zpos BinNums.xH)))), and (forall z : Prelude.vec, HermiteN.gintegrable n "
        "(fun w : Prelude.vec => Prelude.nsq n (Prelude.vsub (@HermiteModel.heval n h z) "
        "(@HermiteModel.heval n h (Mehler.ou rho (R_sqrt.sqrt (Rdefinitions.Rminus "
        "(Rdefinitions.IZR (BinNums.Zpos BinNums.xH)) (Rpow_def.pow rho (S (S O))))) z w))))) "
        "(and (HermiteN.gintegrable n (fun z : Prelude.vec => HermiteN.gexpn n (fun w : "
        "Prelude.vec => Prelude.nsq n (Prelude.vsub (@HermiteModel.heval n h z) "
        "(@HermiteModel.heval n h (Mehler.ou rho (R_sqrt.sqrt (Rdefinitions.Rminus "
        "(Rdefinitions.IZR (BinNums.Zpos BinNums.xH)) (Rpow_def.pow rho (S (S O))))) z "
        "w)))))) (@eq Rdefinitions.RbaseSymbolsImpl.R (@HermiteModel.halignment n h rho) "
        "(HermiteN.gexpn n (fun z : Prelude.vec => HermiteN.gexpn n (fun w : Prelude.vec => "
        "Prelude.nsq n (Prelude.vsub (@HermiteModel.heval n h z) (@HermiteModel.heval n h "
        "(Mehler.ou rho (R_sqrt.sqrt (Rdefinitions.Rminus (Rdefinitions.IZR (BinNums.Zpos "
        "BinNums.xH)) (Rpow_def.pow rho (S (S O))))) z w))))))))"
    ),
    "LejepaId.Mehler.forward_identifiability_model_ou": (
        "forall (n : nat) (h : HermiteModel.HEncoder n) (rho : "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : and (Rdefinitions.RbaseSymbolsImpl.Rlt "
        "(Rdefinitions.IZR BinNums.Z0) rho) (Rdefinitions.RbaseSymbolsImpl.Rlt rho "
        "(Rdefinitions.IZR (BinNums.Zpos BinNums.xH)))) (_ : @HermiteN.gwhitened_n n h), and "
        "(Rdefinitions.Rle (Rdefinitions.RbaseSymbolsImpl.Rmult "
        "(Rdefinitions.RbaseSymbolsImpl.Rmult (Rdefinitions.IZR (BinNums.Zpos (BinNums.xO "
        "BinNums.xH))) (Rdefinitions.Rminus (Rdefinitions.IZR (BinNums.Zpos BinNums.xH)) "
        "rho)) (Raxioms.INR n)) (@Mehler.ou_alignment n h rho)) (forall _ : @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (@Mehler.ou_alignment n h rho) "
        "(Rdefinitions.RbaseSymbolsImpl.Rmult (Rdefinitions.RbaseSymbolsImpl.Rmult "
        "(Rdefinitions.IZR (BinNums.Zpos (BinNums.xO BinNums.xH))) (Rdefinitions.Rminus "
        "(Rdefinitions.IZR (BinNums.Zpos BinNums.xH)) rho)) (Raxioms.INR n)), @ex Prelude.mat "
        "(fun Q : Prelude.mat => and (Prelude.orthogonal n Q) (forall z : Prelude.vec, "
        "Prelude.veq n (@HermiteModel.heval n h z) (Prelude.mapply n Q z))))"
    ),
    "LejepaId.Mehler.approx_identifiability_model_ou": (
        "forall (n : nat) (h : HermiteModel.HEncoder n) (rho : "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : and (Rdefinitions.RbaseSymbolsImpl.Rlt "
        "(Rdefinitions.IZR BinNums.Z0) rho) (Rdefinitions.RbaseSymbolsImpl.Rlt rho "
        "(Rdefinitions.IZR (BinNums.Zpos BinNums.xH)))) (_ : forall (i : nat) (_ : lt i n), "
        "@eq Rdefinitions.RbaseSymbolsImpl.R (HermiteN.gexpn n (fun z : Prelude.vec => "
        "@HermiteModel.heval n h z i)) (Rdefinitions.IZR BinNums.Z0)), @ex Prelude.mat (fun Q "
        ": Prelude.mat => and (Prelude.orthogonal n Q) (Rdefinitions.Rle (HermiteN.gexpn n "
        "(fun z : Prelude.vec => Prelude.nsq n (Prelude.vsub (@HermiteModel.heval n h z) "
        "(Prelude.mapply n Q z)))) (Approximate.thm3_bound rho (Rdefinitions.Rminus "
        "(@Mehler.ou_alignment n h rho) (Rdefinitions.RbaseSymbolsImpl.Rmult "
        "(Rdefinitions.RbaseSymbolsImpl.Rmult (Rdefinitions.IZR (BinNums.Zpos (BinNums.xO "
        "BinNums.xH))) (Rdefinitions.Rminus (Rdefinitions.IZR (BinNums.Zpos BinNums.xH)) "
        "rho)) (Prelude.fsum n (fun i : nat => Rdefinitions.Rminus (HermiteN.gexpn n (fun z : "
        "Prelude.vec => Rdefinitions.RbaseSymbolsImpl.Rmult (@HermiteModel.heval n h z i) "
        "(@HermiteModel.heval n h z i))) (Rdefinitions.RbaseSymbolsImpl.Rmult (HermiteN.gexpn "
        "n (fun z : Prelude.vec => @HermiteModel.heval n h z i)) (HermiteN.gexpn n (fun z : "
        "Prelude.vec => @HermiteModel.heval n h z i))))))) (R_sqrt.sqrt (Prelude.fsum n (fun "
        "i : nat => Prelude.fsum n (fun j : nat => Rpow_def.pow (Rdefinitions.Rminus "
        "(Rdefinitions.Rminus (HermiteN.gexpn n (fun z : Prelude.vec => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (@HermiteModel.heval n h z i) "
        "(@HermiteModel.heval n h z j))) (Rdefinitions.RbaseSymbolsImpl.Rmult (HermiteN.gexpn "
        "n (fun z : Prelude.vec => @HermiteModel.heval n h z i)) (HermiteN.gexpn n (fun z : "
        "Prelude.vec => @HermiteModel.heval n h z j)))) (Prelude.kron i j)) (S (S O)))))))))"
    ),
    "LejepaId.Dirichlet.dirichlet_identifiability_n": (
        "forall (n : nat) (I : forall _ : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R, Prop) (E : forall _ : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R) (h : forall _ : "
        "Prelude.vec, Prelude.vec) (J : forall _ : Prelude.vec, Prelude.mat) (g : forall _ : "
        "Prelude.vec, Prelude.vec) (Jg : forall _ : Prelude.vec, Prelude.mat) (_ : lt O n) (_ "
        ": Dirichlet.is_expectation Prelude.vec I E) (_ : forall (f : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : I f) (_ : forall t : Prelude.vec, "
        "Rdefinitions.Rle (Rdefinitions.IZR BinNums.Z0) (f t)) (_ : @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (E f) (Rdefinitions.IZR BinNums.Z0)) (t : "
        "Prelude.vec), @eq Rdefinitions.RbaseSymbolsImpl.R (f t) (Rdefinitions.IZR "
        "BinNums.Z0)) (_ : Dirichlet.has_jacobian n h J) (_ : Dirichlet.dirichlet_optimal n I "
        "E J) (_ : Dirichlet.has_jacobian n g Jg) (_ : Dirichlet.dirichlet_optimal n I E Jg) "
        "(_ : forall x : Prelude.vec, Prelude.veq n (g (h x)) x) (_ : Prelude.veq n (h (fun _ "
        ": nat => Rdefinitions.IZR BinNums.Z0)) (fun _ : nat => Rdefinitions.IZR "
        "BinNums.Z0)), @ex Prelude.mat (fun Q : Prelude.mat => and (forall (i k : nat) (_ : "
        "lt i n) (_ : lt k n), @eq Rdefinitions.RbaseSymbolsImpl.R (Prelude.fsum n (fun j : "
        "nat => Rdefinitions.RbaseSymbolsImpl.Rmult (Q j i) (Q j k))) (Prelude.kron i k)) "
        "(forall z : Prelude.vec, Prelude.veq n (h z) (Prelude.mapply n Q z)))"
    ),
    "LejepaId.GaussianExpectation.gexp_is_expectation": (
        "Dirichlet.is_expectation Rdefinitions.RbaseSymbolsImpl.R "
        "GaussianExpectation.gintegrable1 HermiteGauss.gexp"
    ),
    "LejepaId.GaussianExpectation.gexp_faithful": (
        "forall (f : forall _ : Hierarchy.UniformSpace.sort Hierarchy.R_UniformSpace, "
        "Hierarchy.UniformSpace.sort Hierarchy.R_UniformSpace) (_ : forall x : "
        "Hierarchy.UniformSpace.sort Hierarchy.R_UniformSpace, @Continuity.continuous "
        "Hierarchy.R_UniformSpace Hierarchy.R_UniformSpace f x) (_ : "
        "GaussianExpectation.gintegrable1 f) (_ : forall x : Hierarchy.UniformSpace.sort "
        "Hierarchy.R_UniformSpace, Rdefinitions.Rle (Rdefinitions.IZR BinNums.Z0) (f x)) (_ : "
        "@eq Rdefinitions.RbaseSymbolsImpl.R (HermiteGauss.gexp f) (Rdefinitions.IZR "
        "BinNums.Z0)) (x : Hierarchy.UniformSpace.sort Hierarchy.R_UniformSpace), @eq "
        "(Hierarchy.UniformSpace.sort Hierarchy.R_UniformSpace) (f x) (Rdefinitions.IZR "
        "BinNums.Z0)"
    ),
    "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss1": (
        "forall (h : forall _ : Prelude.vec, Prelude.vec) (J : forall _ : Prelude.vec, "
        "Prelude.mat) (g : forall _ : Prelude.vec, Prelude.vec) (Jg : forall _ : Prelude.vec, "
        "Prelude.mat) (_ : Dirichlet.has_jacobian (S O) h J) (_ : Dirichlet.dirichlet_optimal "
        "(S O) GaussianExpectation.gclass1 GaussianExpectation.gexp1 J) (_ : "
        "Dirichlet.has_jacobian (S O) g Jg) (_ : Dirichlet.dirichlet_optimal (S O) "
        "GaussianExpectation.gclass1 GaussianExpectation.gexp1 Jg) (_ : forall x : "
        "Prelude.vec, Prelude.veq (S O) (g (h x)) x) (_ : Prelude.veq (S O) (h (fun _ : nat "
        "=> Rdefinitions.IZR BinNums.Z0)) (fun _ : nat => Rdefinitions.IZR BinNums.Z0)), @ex "
        "Prelude.mat (fun Q : Prelude.mat => and (forall (i k : nat) (_ : lt i (S O)) (_ : lt "
        "k (S O)), @eq Rdefinitions.RbaseSymbolsImpl.R (Prelude.fsum (S O) (fun j : nat => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (Q j i) (Q j k))) (Prelude.kron i k)) (forall z "
        ": Prelude.vec, Prelude.veq (S O) (h z) (Prelude.mapply (S O) Q z)))"
    ),
    "LejepaId.GaussianExpectation.gexpn_is_expectation": (
        "forall n : nat, Dirichlet.is_expectation Prelude.vec (GaussianExpectation.gclass n) "
        "(HermiteN.gexpn n)"
    ),
    "LejepaId.GaussianExpectation.gexpn_faithful": (
        "forall (n : nat) (F : forall _ : Prelude.vec, Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "GaussianExpectation.gclass n F) (_ : forall t : Prelude.vec, Rdefinitions.Rle "
        "(Rdefinitions.IZR BinNums.Z0) (F t)) (_ : @eq Rdefinitions.RbaseSymbolsImpl.R "
        "(HermiteN.gexpn n F) (Rdefinitions.IZR BinNums.Z0)) (t : Prelude.vec), @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (F t) (Rdefinitions.IZR BinNums.Z0)"
    ),
    "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss": (
        "forall (n : nat) (h : forall _ : Prelude.vec, Prelude.vec) (J : forall _ : "
        "Prelude.vec, Prelude.mat) (g : forall _ : Prelude.vec, Prelude.vec) (Jg : forall _ : "
        "Prelude.vec, Prelude.mat) (_ : lt O n) (_ : Dirichlet.has_jacobian n h J) (_ : "
        "Dirichlet.dirichlet_optimal n (GaussianExpectation.gclass n) (HermiteN.gexpn n) J) "
        "(_ : Dirichlet.has_jacobian n g Jg) (_ : Dirichlet.dirichlet_optimal n "
        "(GaussianExpectation.gclass n) (HermiteN.gexpn n) Jg) (_ : forall x : Prelude.vec, "
        "Prelude.veq n (g (h x)) x) (_ : Prelude.veq n (h (fun _ : nat => Rdefinitions.IZR "
        "BinNums.Z0)) (fun _ : nat => Rdefinitions.IZR BinNums.Z0)), @ex Prelude.mat (fun Q : "
        "Prelude.mat => and (forall (i k : nat) (_ : lt i n) (_ : lt k n), @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (Prelude.fsum n (fun j : nat => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (Q j i) (Q j k))) (Prelude.kron i k)) (forall z "
        ": Prelude.vec, Prelude.veq n (h z) (Prelude.mapply n Q z)))"
    ),
    "LejepaId.Approximate.kappa_pos": (
        "forall (rho : Rdefinitions.RbaseSymbolsImpl.R) (_ : and "
        "(Rdefinitions.RbaseSymbolsImpl.Rlt (Rdefinitions.IZR BinNums.Z0) rho) "
        "(Rdefinitions.RbaseSymbolsImpl.Rlt rho (Rdefinitions.IZR (BinNums.Zpos "
        "BinNums.xH)))), Rdefinitions.RbaseSymbolsImpl.Rlt (Rdefinitions.IZR BinNums.Z0) "
        "(Approximate.kappa rho)"
    ),
    "LejepaId.Approximate.approx_identifiability": (
        "forall (rho delta eps W_nl mq : Rdefinitions.RbaseSymbolsImpl.R) (_ : and "
        "(Rdefinitions.RbaseSymbolsImpl.Rlt (Rdefinitions.IZR BinNums.Z0) rho) "
        "(Rdefinitions.RbaseSymbolsImpl.Rlt rho (Rdefinitions.IZR (BinNums.Zpos "
        "BinNums.xH)))) (_ : Rdefinitions.Rle (Rdefinitions.IZR BinNums.Z0) W_nl) (_ : "
        "Rdefinitions.Rle (Rdefinitions.IZR BinNums.Z0) mq) (_ : Rdefinitions.Rle mq "
        "(Rdefinitions.RbaseSymbolsImpl.Rplus eps W_nl)) (_ : Rdefinitions.Rle "
        "(Rdefinitions.RbaseSymbolsImpl.Rmult (Approximate.kappa rho) W_nl) delta), "
        "Rdefinitions.Rle (Rdefinitions.RbaseSymbolsImpl.Rplus (Rpow_def.pow mq (S (S O))) "
        "W_nl) (Approximate.thm3_bound rho delta eps)"
    ),
    "LejepaId.Planning.step_push": (
        "forall (S A : Type) (eqS : forall (_ : S) (_ : S), Prop) (_ : forall (x y z : S) (_ "
        ": eqS x y) (_ : eqS y z), eqS x z) (f : forall (_ : S) (_ : A), S) (phi psi : forall "
        "_ : S, S) (_ : forall (x y : S) (a : A) (_ : eqS x y), eqS (f x a) (f y a)) (_ : "
        "forall (x y : S) (_ : eqS x y), eqS (phi x) (phi y)) (_ : forall (x y : S) (_ : eqS "
        "x y), eqS (psi x) (psi y)) (_ : forall x : S, eqS (psi (phi x)) x) (x y : S) (a : A) "
        "(_ : eqS y (phi x)), eqS (Planning.pushed S A f phi psi y a) (phi (f x a))"
    ),
    "LejepaId.Planning.cost_push": (
        "forall (S A : Type) (eqS : forall (_ : S) (_ : S), Prop) (_ : forall (x y z : S) (_ "
        ": eqS x y) (_ : eqS y z), eqS x z) (f : forall (_ : S) (_ : A), S) (c : forall (_ : "
        "S) (_ : A), Rdefinitions.RbaseSymbolsImpl.R) (cT : forall _ : S, "
        "Rdefinitions.RbaseSymbolsImpl.R) (phi psi : forall _ : S, S) (_ : forall (x y : S) "
        "(a : A) (_ : eqS x y), eqS (f x a) (f y a)) (_ : forall (x y : S) (a : A) (_ : eqS x "
        "y), @eq Rdefinitions.RbaseSymbolsImpl.R (c x a) (c y a)) (_ : forall (x y : S) (_ : "
        "eqS x y), @eq Rdefinitions.RbaseSymbolsImpl.R (cT x) (cT y)) (_ : forall (x y : S) "
        "(_ : eqS x y), eqS (phi x) (phi y)) (_ : forall (x y : S) (_ : eqS x y), eqS (psi x) "
        "(psi y)) (_ : forall x : S, eqS (psi (phi x)) x) (_ : forall (x : S) (a : A), @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (c (phi x) a) (c x a)) (_ : forall x : S, @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (cT (phi x)) (cT x)) (acts : list A) (x y : S) (_ : "
        "eqS y (phi x)), @eq Rdefinitions.RbaseSymbolsImpl.R (Planning.total_cost S A c cT "
        "(Planning.pushed S A f phi psi) y acts) (Planning.total_cost S A c cT f x acts)"
    ),
    "LejepaId.Planning.planning_cost_equal": (
        "forall (S A : Type) (eqS : forall (_ : S) (_ : S), Prop) (_ : forall (x y : S) (_ : "
        "eqS x y), eqS y x) (_ : forall (x y z : S) (_ : eqS x y) (_ : eqS y z), eqS x z) (f "
        ": forall (_ : S) (_ : A), S) (c : forall (_ : S) (_ : A), "
        "Rdefinitions.RbaseSymbolsImpl.R) (cT : forall _ : S, "
        "Rdefinitions.RbaseSymbolsImpl.R) (phi psi : forall _ : S, S) (_ : forall (x y : S) "
        "(a : A) (_ : eqS x y), eqS (f x a) (f y a)) (_ : forall (x y : S) (a : A) (_ : eqS x "
        "y), @eq Rdefinitions.RbaseSymbolsImpl.R (c x a) (c y a)) (_ : forall (x y : S) (_ : "
        "eqS x y), @eq Rdefinitions.RbaseSymbolsImpl.R (cT x) (cT y)) (_ : forall (x y : S) "
        "(_ : eqS x y), eqS (phi x) (phi y)) (_ : forall (x y : S) (_ : eqS x y), eqS (psi x) "
        "(psi y)) (_ : forall x : S, eqS (psi (phi x)) x) (_ : forall (x : S) (a : A), @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (c (phi x) a) (c x a)) (_ : forall x : S, @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (cT (phi x)) (cT x)) (x : S) (acts : list A), @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (Planning.total_cost S A c cT (Planning.pushed S A f "
        "phi psi) (phi x) acts) (Planning.total_cost S A c cT f x acts)"
    ),
    "LejepaId.Planning.planning_minimizers_coincide": (
        "forall (S A : Type) (eqS : forall (_ : S) (_ : S), Prop) (_ : forall (x y : S) (_ : "
        "eqS x y), eqS y x) (_ : forall (x y z : S) (_ : eqS x y) (_ : eqS y z), eqS x z) (f "
        ": forall (_ : S) (_ : A), S) (c : forall (_ : S) (_ : A), "
        "Rdefinitions.RbaseSymbolsImpl.R) (cT : forall _ : S, "
        "Rdefinitions.RbaseSymbolsImpl.R) (phi psi : forall _ : S, S) (_ : forall (x y : S) "
        "(a : A) (_ : eqS x y), eqS (f x a) (f y a)) (_ : forall (x y : S) (a : A) (_ : eqS x "
        "y), @eq Rdefinitions.RbaseSymbolsImpl.R (c x a) (c y a)) (_ : forall (x y : S) (_ : "
        "eqS x y), @eq Rdefinitions.RbaseSymbolsImpl.R (cT x) (cT y)) (_ : forall (x y : S) "
        "(_ : eqS x y), eqS (phi x) (phi y)) (_ : forall (x y : S) (_ : eqS x y), eqS (psi x) "
        "(psi y)) (_ : forall x : S, eqS (psi (phi x)) x) (_ : forall (x : S) (a : A), @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (c (phi x) a) (c x a)) (_ : forall x : S, @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (cT (phi x)) (cT x)) (x : S) (T : nat) (acts : list "
        "A), iff (Planning.is_minimizer S A c cT (Planning.pushed S A f phi psi) (phi x) T "
        "acts) (Planning.is_minimizer S A c cT f x T acts)"
    ),
    "LejepaId.Planning.planning_values_coincide": (
        "forall (S A : Type) (eqS : forall (_ : S) (_ : S), Prop) (_ : forall (x y : S) (_ : "
        "eqS x y), eqS y x) (_ : forall (x y z : S) (_ : eqS x y) (_ : eqS y z), eqS x z) (f "
        ": forall (_ : S) (_ : A), S) (c : forall (_ : S) (_ : A), "
        "Rdefinitions.RbaseSymbolsImpl.R) (cT : forall _ : S, "
        "Rdefinitions.RbaseSymbolsImpl.R) (phi psi : forall _ : S, S) (_ : forall (x y : S) "
        "(a : A) (_ : eqS x y), eqS (f x a) (f y a)) (_ : forall (x y : S) (a : A) (_ : eqS x "
        "y), @eq Rdefinitions.RbaseSymbolsImpl.R (c x a) (c y a)) (_ : forall (x y : S) (_ : "
        "eqS x y), @eq Rdefinitions.RbaseSymbolsImpl.R (cT x) (cT y)) (_ : forall (x y : S) "
        "(_ : eqS x y), eqS (phi x) (phi y)) (_ : forall (x y : S) (_ : eqS x y), eqS (psi x) "
        "(psi y)) (_ : forall x : S, eqS (psi (phi x)) x) (_ : forall (x : S) (a : A), @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (c (phi x) a) (c x a)) (_ : forall x : S, @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (cT (phi x)) (cT x)) (x : S) (T : nat) (v : "
        "Rdefinitions.RbaseSymbolsImpl.R), iff (Planning.is_opt_value S A c cT "
        "(Planning.pushed S A f phi psi) (phi x) T v) (Planning.is_opt_value S A c cT f x T "
        "v)"
    ),
    "LejepaId.Planning.planning_orthogonal_cost": (
        "forall (n : nat) (Q : Prelude.mat) (A : Type) (_ : Prelude.orthogonal n Q) (f : "
        "forall (_ : Prelude.vec) (_ : A), Prelude.vec) (c : forall (_ : Prelude.vec) (_ : "
        "A), Rdefinitions.RbaseSymbolsImpl.R) (cT : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : forall (x y : Prelude.vec) (a : A) (_ : "
        "Prelude.veq n x y), Prelude.veq n (f x a) (f y a)) (_ : forall (x y : Prelude.vec) "
        "(a : A) (_ : Prelude.veq n x y), @eq Rdefinitions.RbaseSymbolsImpl.R (c x a) (c y "
        "a)) (_ : forall (x y : Prelude.vec) (_ : Prelude.veq n x y), @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (cT x) (cT y)) (_ : forall (x : Prelude.vec) (a : "
        "A), @eq Rdefinitions.RbaseSymbolsImpl.R (c (Prelude.mapply n Q x) a) (c x a)) (_ : "
        "forall x : Prelude.vec, @eq Rdefinitions.RbaseSymbolsImpl.R (cT (Prelude.mapply n Q "
        "x)) (cT x)) (x : Prelude.vec) (acts : list A), @eq Rdefinitions.RbaseSymbolsImpl.R "
        "(Planning.total_cost Prelude.vec A c cT (Planning.pushed_Q n Q A f) (Prelude.mapply "
        "n Q x) acts) (Planning.total_cost Prelude.vec A c cT f x acts)"
    ),
    "LejepaId.Planning.planning_orthogonal_minimizers": (
        "forall (n : nat) (Q : Prelude.mat) (A : Type) (_ : Prelude.orthogonal n Q) (f : "
        "forall (_ : Prelude.vec) (_ : A), Prelude.vec) (c : forall (_ : Prelude.vec) (_ : "
        "A), Rdefinitions.RbaseSymbolsImpl.R) (cT : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : forall (x y : Prelude.vec) (a : A) (_ : "
        "Prelude.veq n x y), Prelude.veq n (f x a) (f y a)) (_ : forall (x y : Prelude.vec) "
        "(a : A) (_ : Prelude.veq n x y), @eq Rdefinitions.RbaseSymbolsImpl.R (c x a) (c y "
        "a)) (_ : forall (x y : Prelude.vec) (_ : Prelude.veq n x y), @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (cT x) (cT y)) (_ : forall (x : Prelude.vec) (a : "
        "A), @eq Rdefinitions.RbaseSymbolsImpl.R (c (Prelude.mapply n Q x) a) (c x a)) (_ : "
        "forall x : Prelude.vec, @eq Rdefinitions.RbaseSymbolsImpl.R (cT (Prelude.mapply n Q "
        "x)) (cT x)) (x : Prelude.vec) (T : nat) (acts : list A), iff (Planning.is_minimizer "
        "Prelude.vec A c cT (Planning.pushed_Q n Q A f) (Prelude.mapply n Q x) T acts) "
        "(Planning.is_minimizer Prelude.vec A c cT f x T acts)"
    ),
    "LejepaId.Planning.planning_orthogonal_values": (
        "forall (n : nat) (Q : Prelude.mat) (A : Type) (_ : Prelude.orthogonal n Q) (f : "
        "forall (_ : Prelude.vec) (_ : A), Prelude.vec) (c : forall (_ : Prelude.vec) (_ : "
        "A), Rdefinitions.RbaseSymbolsImpl.R) (cT : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : forall (x y : Prelude.vec) (a : A) (_ : "
        "Prelude.veq n x y), Prelude.veq n (f x a) (f y a)) (_ : forall (x y : Prelude.vec) "
        "(a : A) (_ : Prelude.veq n x y), @eq Rdefinitions.RbaseSymbolsImpl.R (c x a) (c y "
        "a)) (_ : forall (x y : Prelude.vec) (_ : Prelude.veq n x y), @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (cT x) (cT y)) (_ : forall (x : Prelude.vec) (a : "
        "A), @eq Rdefinitions.RbaseSymbolsImpl.R (c (Prelude.mapply n Q x) a) (c x a)) (_ : "
        "forall x : Prelude.vec, @eq Rdefinitions.RbaseSymbolsImpl.R (cT (Prelude.mapply n Q "
        "x)) (cT x)) (x : Prelude.vec) (T : nat) (v : Rdefinitions.RbaseSymbolsImpl.R), iff "
        "(Planning.is_opt_value Prelude.vec A c cT (Planning.pushed_Q n Q A f) "
        "(Prelude.mapply n Q x) T v) (Planning.is_opt_value Prelude.vec A c cT f x T v)"
    ),
    "LejepaId.Planning.pushed_kernel_markov": (
        "forall (S A : Type) (states : list S) (P : forall (_ : S) (_ : A) (_ : S), "
        "Rdefinitions.RbaseSymbolsImpl.R) (phi psi : forall _ : S, S) (_ : forall x : S, @eq "
        "S (psi (phi x)) x) (_ : Planning.markov_kernel S A states P), Planning.markov_kernel "
        "S A (Planning.latent_states S states phi) (Planning.pushed_kernel S A P psi)"
    ),
    "LejepaId.Planning.stochastic_cost_equal": (
        "forall (S A : Type) (states : list S) (P : forall (_ : S) (_ : A) (_ : S), "
        "Rdefinitions.RbaseSymbolsImpl.R) (c : forall (_ : S) (_ : A), "
        "Rdefinitions.RbaseSymbolsImpl.R) (cT : forall _ : S, "
        "Rdefinitions.RbaseSymbolsImpl.R) (phi psi : forall _ : S, S) (_ : forall x : S, @eq "
        "S (psi (phi x)) x) (_ : forall (x : S) (a : A), @eq Rdefinitions.RbaseSymbolsImpl.R "
        "(c (phi x) a) (c x a)) (_ : forall x : S, @eq Rdefinitions.RbaseSymbolsImpl.R (cT "
        "(phi x)) (cT x)) (acts : list A) (x : S), @eq Rdefinitions.RbaseSymbolsImpl.R "
        "(Planning.exp_cost S A c cT (Planning.latent_states S states phi) "
        "(Planning.pushed_kernel S A P psi) (phi x) acts) (Planning.exp_cost S A c cT states "
        "P x acts)"
    ),
    "LejepaId.Planning.stochastic_minimizers_coincide": (
        "forall (S A : Type) (states : list S) (P : forall (_ : S) (_ : A) (_ : S), "
        "Rdefinitions.RbaseSymbolsImpl.R) (c : forall (_ : S) (_ : A), "
        "Rdefinitions.RbaseSymbolsImpl.R) (cT : forall _ : S, "
        "Rdefinitions.RbaseSymbolsImpl.R) (phi psi : forall _ : S, S) (_ : forall x : S, @eq "
        "S (psi (phi x)) x) (_ : forall (x : S) (a : A), @eq Rdefinitions.RbaseSymbolsImpl.R "
        "(c (phi x) a) (c x a)) (_ : forall x : S, @eq Rdefinitions.RbaseSymbolsImpl.R (cT "
        "(phi x)) (cT x)) (x : S) (T : nat) (acts : list A), iff (Planning.is_stoch_minimizer "
        "S A c cT (Planning.latent_states S states phi) (Planning.pushed_kernel S A P psi) "
        "(phi x) T acts) (Planning.is_stoch_minimizer S A c cT states P x T acts)"
    ),
    "LejepaId.Planning.stochastic_values_coincide": (
        "forall (S A : Type) (states : list S) (P : forall (_ : S) (_ : A) (_ : S), "
        "Rdefinitions.RbaseSymbolsImpl.R) (c : forall (_ : S) (_ : A), "
        "Rdefinitions.RbaseSymbolsImpl.R) (cT : forall _ : S, "
        "Rdefinitions.RbaseSymbolsImpl.R) (phi psi : forall _ : S, S) (_ : forall x : S, @eq "
        "S (psi (phi x)) x) (_ : forall (x : S) (a : A), @eq Rdefinitions.RbaseSymbolsImpl.R "
        "(c (phi x) a) (c x a)) (_ : forall x : S, @eq Rdefinitions.RbaseSymbolsImpl.R (cT "
        "(phi x)) (cT x)) (x : S) (T : nat) (v : Rdefinitions.RbaseSymbolsImpl.R), iff "
        "(Planning.is_stoch_value S A c cT (Planning.latent_states S states phi) "
        "(Planning.pushed_kernel S A P psi) (phi x) T v) (Planning.is_stoch_value S A c cT "
        "states P x T v)"
    ),
    "LejepaId.IntegrationOrder.gexpn_sumprod_order": (
        "forall (n N : nat) (c : forall _ : nat, Rdefinitions.RbaseSymbolsImpl.R) (p : "
        "forall (_ : nat) (_ : nat) (_ : Rdefinitions.RbaseSymbolsImpl.R), "
        "Rdefinitions.RbaseSymbolsImpl.R) (sigma tau : forall _ : nat, nat) (_ : "
        "IntegrationOrder.is_perm n sigma tau) (_ : forall k j : nat, "
        "GaussianMoments.IsPoly (p k j)), and (HermiteN.gintegrable n (fun z : "
        "Prelude.vec => HermiteN.sumprod n N c p (IntegrationOrder.vperm sigma z))) "
        "(@eq Rdefinitions.RbaseSymbolsImpl.R (HermiteN.gexpn n (fun z : Prelude.vec "
        "=> HermiteN.sumprod n N c p (IntegrationOrder.vperm sigma z))) "
        "(HermiteN.gexpn n (HermiteN.sumprod n N c p)))"
    ),
    "LejepaId.IntegrationOrder.model_alignment_order": (
        "forall (n : nat) (h : HermiteModel.HEncoder n) (rho : "
        "Rdefinitions.RbaseSymbolsImpl.R) (sigma tau sw tw : forall _ : nat, nat) (_ : "
        "and (Rdefinitions.Rle (Rdefinitions.IZR (BinNums.Zneg BinNums.xH)) rho) "
        "(Rdefinitions.Rle rho (Rdefinitions.IZR (BinNums.Zpos BinNums.xH)))) (_ : "
        "IntegrationOrder.is_perm n sigma tau) (_ : IntegrationOrder.is_perm n sw tw), "
        "and (forall z : Prelude.vec, HermiteN.gintegrable n (fun w : Prelude.vec => "
        "Prelude.nsq n (Prelude.vsub (@HermiteModel.heval n h (IntegrationOrder.vperm "
        "sigma z)) (@HermiteModel.heval n h (Mehler.ou rho (R_sqrt.sqrt "
        "(Rdefinitions.Rminus (Rdefinitions.IZR (BinNums.Zpos BinNums.xH)) "
        "(Rpow_def.pow rho (S (S O))))) (IntegrationOrder.vperm sigma z) "
        "(IntegrationOrder.vperm sw w)))))) (and (HermiteN.gintegrable n (fun z : "
        "Prelude.vec => HermiteN.gexpn n (fun w : Prelude.vec => Prelude.nsq n "
        "(Prelude.vsub (@HermiteModel.heval n h (IntegrationOrder.vperm sigma z)) "
        "(@HermiteModel.heval n h (Mehler.ou rho (R_sqrt.sqrt (Rdefinitions.Rminus "
        "(Rdefinitions.IZR (BinNums.Zpos BinNums.xH)) (Rpow_def.pow rho (S (S O))))) "
        "(IntegrationOrder.vperm sigma z) (IntegrationOrder.vperm sw w))))))) (@eq "
        "Rdefinitions.RbaseSymbolsImpl.R (HermiteN.gexpn n (fun z : Prelude.vec => "
        "HermiteN.gexpn n (fun w : Prelude.vec => Prelude.nsq n (Prelude.vsub "
        "(@HermiteModel.heval n h (IntegrationOrder.vperm sigma z)) "
        "(@HermiteModel.heval n h (Mehler.ou rho (R_sqrt.sqrt (Rdefinitions.Rminus "
        "(Rdefinitions.IZR (BinNums.Zpos BinNums.xH)) (Rpow_def.pow rho (S (S O))))) "
        "(IntegrationOrder.vperm sigma z) (IntegrationOrder.vperm sw w))))))) "
        "(@Mehler.ou_alignment n h rho)))"
    ),
    "LejepaId.GaussianExpectation.gauss_log_volume_zero": (
        "forall (n : nat) (h : forall _ : Prelude.vec, Prelude.vec) (J : forall _ : "
        "Prelude.vec, Prelude.mat) (_ : GaussianExpectation.gauss_jacobian_density n h J) (_ "
        ": GaussianExpectation.gclass n (fun z : Prelude.vec => Prelude.nsq n (h z))) (_ : "
        "@eq Rdefinitions.RbaseSymbolsImpl.R (HermiteN.gexpn n (fun z : Prelude.vec => "
        "Prelude.nsq n (h z))) (HermiteN.gexpn n (Prelude.nsq n))), and (forall z : "
        "Prelude.vec, Rdefinitions.RbaseSymbolsImpl.Rlt (Rdefinitions.IZR BinNums.Z0) "
        "(Dirichlet.det n (Dirichlet.gram n (J z)))) (and (GaussianExpectation.gclass n (fun "
        "z : Prelude.vec => Dirichlet.log_volume n (J z))) (@eq "
        "Rdefinitions.RbaseSymbolsImpl.R (HermiteN.gexpn n (fun z : Prelude.vec => "
        "Dirichlet.log_volume n (J z))) (Rdefinitions.IZR BinNums.Z0)))"
    ),
    "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss_density": (
        "forall (n : nat) (h : forall _ : Prelude.vec, Prelude.vec) (J : forall _ : "
        "Prelude.vec, Prelude.mat) (g : forall _ : Prelude.vec, Prelude.vec) (Jg : forall _ :"
        " Prelude.vec, Prelude.mat) (_ : lt O n) (_ : Dirichlet.has_jacobian n h J) (_ : "
        "GaussianExpectation.gauss_jacobian_density n h J) (_ : GaussianExpectation.gclass n "
        "(fun z : Prelude.vec => Prelude.nsq n (h z))) (_ : @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (HermiteN.gexpn n (fun z : Prelude.vec => "
        "Prelude.nsq n (h z))) (HermiteN.gexpn n (Prelude.nsq n))) (_ : "
        "GaussianExpectation.gclass n (fun z : Prelude.vec => Dirichlet.dirichlet_energy n (J"
        " z))) (_ : GaussianExpectation.gclass n (fun z : Prelude.vec => Rtrigo_def.exp "
        "(Rdefinitions.RbaseSymbolsImpl.Rmult (Rdefinitions.RinvImpl.Rinv (Raxioms.INR n)) "
        "(Dirichlet.log_volume n (J z))))) (_ : @eq Rdefinitions.RbaseSymbolsImpl.R "
        "(HermiteN.gexpn n (fun z : Prelude.vec => Dirichlet.dirichlet_energy n (J z))) "
        "(Raxioms.INR n)) (_ : Dirichlet.has_jacobian n g Jg) (_ : "
        "GaussianExpectation.gauss_jacobian_density n g Jg) (_ : GaussianExpectation.gclass n"
        " (fun z : Prelude.vec => Prelude.nsq n (g z))) (_ : @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (HermiteN.gexpn n (fun z : Prelude.vec => "
        "Prelude.nsq n (g z))) (HermiteN.gexpn n (Prelude.nsq n))) (_ : "
        "GaussianExpectation.gclass n (fun z : Prelude.vec => Dirichlet.dirichlet_energy n "
        "(Jg z))) (_ : GaussianExpectation.gclass n (fun z : Prelude.vec => Rtrigo_def.exp "
        "(Rdefinitions.RbaseSymbolsImpl.Rmult (Rdefinitions.RinvImpl.Rinv (Raxioms.INR n)) "
        "(Dirichlet.log_volume n (Jg z))))) (_ : @eq Rdefinitions.RbaseSymbolsImpl.R "
        "(HermiteN.gexpn n (fun z : Prelude.vec => Dirichlet.dirichlet_energy n (Jg z))) "
        "(Raxioms.INR n)) (_ : forall x : Prelude.vec, Prelude.veq n (g (h x)) x) (_ : "
        "Prelude.veq n (h (fun _ : nat => Rdefinitions.IZR BinNums.Z0)) (fun _ : nat => "
        "Rdefinitions.IZR BinNums.Z0)), @ex Prelude.mat (fun Q : Prelude.mat => and (forall "
        "(i k : nat) (_ : lt i n) (_ : lt k n), @eq Rdefinitions.RbaseSymbolsImpl.R "
        "(Prelude.fsum n (fun j : nat => Rdefinitions.RbaseSymbolsImpl.Rmult (Q j i) (Q j "
        "k))) (Prelude.kron i k)) (forall z : Prelude.vec, Prelude.veq n (h z) "
        "(Prelude.mapply n Q z)))"
    ),
    "LejepaId.GaussianExpectation.gauss_whitened_energy": (
        "forall (n : nat) (h : forall _ : Prelude.vec, Prelude.vec) (_ : forall (i : nat) (_ "
        ": lt i n), GaussianExpectation.gclass n (fun z : Prelude.vec => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (h z i) (h z i))) (_ : forall (i : nat) (_ : lt "
        "i n), @eq Rdefinitions.RbaseSymbolsImpl.R (HermiteN.gexpn n (fun z : Prelude.vec => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (h z i) (h z i))) (Rdefinitions.IZR "
        "(BinNums.Zpos BinNums.xH))), and (GaussianExpectation.gclass n (fun z : Prelude.vec "
        "=> Prelude.nsq n (h z))) (@eq Rdefinitions.RbaseSymbolsImpl.R (HermiteN.gexpn n "
        "(fun z : Prelude.vec => Prelude.nsq n (h z))) (HermiteN.gexpn n (Prelude.nsq n)))"
    ),
    "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss_whitened": (
        "forall (n : nat) (h : forall _ : Prelude.vec, Prelude.vec) (J : forall _ : "
        "Prelude.vec, Prelude.mat) (g : forall _ : Prelude.vec, Prelude.vec) (Jg : forall _ "
        ": Prelude.vec, Prelude.mat) (_ : lt O n) (_ : Dirichlet.has_jacobian n h J) (_ : "
        "GaussianExpectation.gauss_jacobian_density n h J) (_ : forall (i : nat) (_ : lt i "
        "n), GaussianExpectation.gclass n (fun z : Prelude.vec => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (h z i) (h z i))) (_ : forall (i : nat) (_ : lt "
        "i n), @eq Rdefinitions.RbaseSymbolsImpl.R (HermiteN.gexpn n (fun z : Prelude.vec => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (h z i) (h z i))) (Rdefinitions.IZR "
        "(BinNums.Zpos BinNums.xH))) (_ : GaussianExpectation.gclass n (fun z : Prelude.vec "
        "=> Dirichlet.dirichlet_energy n (J z))) (_ : GaussianExpectation.gclass n (fun z : "
        "Prelude.vec => Rtrigo_def.exp (Rdefinitions.RbaseSymbolsImpl.Rmult "
        "(Rdefinitions.RinvImpl.Rinv (Raxioms.INR n)) (Dirichlet.log_volume n (J z))))) (_ : "
        "@eq Rdefinitions.RbaseSymbolsImpl.R (HermiteN.gexpn n (fun z : Prelude.vec => "
        "Dirichlet.dirichlet_energy n (J z))) (Raxioms.INR n)) (_ : Dirichlet.has_jacobian n "
        "g Jg) (_ : GaussianExpectation.gauss_jacobian_density n g Jg) (_ : forall (i : nat) "
        "(_ : lt i n), GaussianExpectation.gclass n (fun z : Prelude.vec => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (g z i) (g z i))) (_ : forall (i : nat) (_ : lt "
        "i n), @eq Rdefinitions.RbaseSymbolsImpl.R (HermiteN.gexpn n (fun z : Prelude.vec => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (g z i) (g z i))) (Rdefinitions.IZR "
        "(BinNums.Zpos BinNums.xH))) (_ : GaussianExpectation.gclass n (fun z : Prelude.vec "
        "=> Dirichlet.dirichlet_energy n (Jg z))) (_ : GaussianExpectation.gclass n (fun z : "
        "Prelude.vec => Rtrigo_def.exp (Rdefinitions.RbaseSymbolsImpl.Rmult "
        "(Rdefinitions.RinvImpl.Rinv (Raxioms.INR n)) (Dirichlet.log_volume n (Jg z))))) (_ "
        ": @eq Rdefinitions.RbaseSymbolsImpl.R (HermiteN.gexpn n (fun z : Prelude.vec => "
        "Dirichlet.dirichlet_energy n (Jg z))) (Raxioms.INR n)) (_ : forall x : Prelude.vec, "
        "Prelude.veq n (g (h x)) x) (_ : Prelude.veq n (h (fun _ : nat => Rdefinitions.IZR "
        "BinNums.Z0)) (fun _ : nat => Rdefinitions.IZR BinNums.Z0)), @ex Prelude.mat (fun Q "
        ": Prelude.mat => and (forall (i k : nat) (_ : lt i n) (_ : lt k n), @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (Prelude.fsum n (fun j : nat => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (Q j i) (Q j k))) (Prelude.kron i k)) (forall z "
        ": Prelude.vec, Prelude.veq n (h z) (Prelude.mapply n Q z)))"
    ),
    "LejepaId.GaussFubini.gexp_fubini": (
        "forall (f : forall (_ : Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "Rdefinitions.RbaseSymbolsImpl.R), Rdefinitions.RbaseSymbolsImpl.R) (_ : forall x "
        "y : Rdefinitions.RbaseSymbolsImpl.R, Continuity.continuity_2d_pt f x y) (_ : "
        "GaussFubini.poly_growth2 f), and (forall x : Rdefinitions.RbaseSymbolsImpl.R, "
        "GaussianExpectation.gintegrable1 (fun y : Rdefinitions.RbaseSymbolsImpl.R => f x "
        "y)) (and (forall y : Rdefinitions.RbaseSymbolsImpl.R, "
        "GaussianExpectation.gintegrable1 (fun x : Rdefinitions.RbaseSymbolsImpl.R => f x "
        "y)) (and (GaussianExpectation.gintegrable1 (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => HermiteGauss.gexp (fun y : "
        "Rdefinitions.RbaseSymbolsImpl.R => f x y))) (and "
        "(GaussianExpectation.gintegrable1 (fun y : Rdefinitions.RbaseSymbolsImpl.R => "
        "HermiteGauss.gexp (fun x : Rdefinitions.RbaseSymbolsImpl.R => f x y))) (@eq "
        "Rdefinitions.RbaseSymbolsImpl.R (HermiteGauss.gexp (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => HermiteGauss.gexp (fun y : "
        "Rdefinitions.RbaseSymbolsImpl.R => f x y))) (HermiteGauss.gexp (fun y : "
        "Rdefinitions.RbaseSymbolsImpl.R => HermiteGauss.gexp (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => f x y)))))))"
    ),
    "LejepaId.GaussFubiniN.gexpn_fclass_order": (
        "forall (n : nat) (F : forall _ : Prelude.vec, Rdefinitions.RbaseSymbolsImpl.R) "
        "(sigma tau : forall _ : nat, nat) (_ : IntegrationOrder.is_perm n sigma tau) (_ "
        ": GaussFubiniN.fclass n F), and (HermiteN.gintegrable n (fun z : Prelude.vec => "
        "F (IntegrationOrder.vperm sigma z))) (@eq Rdefinitions.RbaseSymbolsImpl.R "
        "(HermiteN.gexpn n (fun z : Prelude.vec => F (IntegrationOrder.vperm sigma z))) "
        "(HermiteN.gexpn n F))"
    ),
    "LejepaId.GaussFubiniN.fclass_order_gclass": (
        "forall (n : nat) (F : forall _ : Prelude.vec, Rdefinitions.RbaseSymbolsImpl.R) "
        "(sigma tau : forall _ : nat, nat) (_ : IntegrationOrder.is_perm n sigma tau) (_ "
        ": GaussFubiniN.fclass n F), and (GaussianExpectation.gclass n F) (and "
        "(GaussianExpectation.gclass n (fun z : Prelude.vec => F (IntegrationOrder.vperm "
        "sigma z))) (@eq Rdefinitions.RbaseSymbolsImpl.R (HermiteN.gexpn n (fun z : "
        "Prelude.vec => F (IntegrationOrder.vperm sigma z))) (HermiteN.gexpn n F)))"
    ),
}

#: Theorem -> the project definitions it depends on (transitively).
USES: dict[str, tuple[str, ...]] = {
    "LejepaId.Converse.hermite_spectrum": (
        "LejepaId.Converse.gaussian_form",
        "LejepaId.Converse.generator",
        "LejepaId.Converse.in_L2",
        "LejepaId.Converse.is_eigenfunction",
        "LejepaId.Converse.nonconstant",
        "LejepaId.Converse.score",
        "LejepaId.Converse.twice_differentiable",
    ),
    "LejepaId.Converse.gaussian_first_eigenfunction": (
        "LejepaId.Converse.first_nonconst_eigenfunction",
        "LejepaId.Converse.gaussian_form",
        "LejepaId.Converse.generator",
        "LejepaId.Converse.in_L2",
        "LejepaId.Converse.is_eigenfunction",
        "LejepaId.Converse.nonconstant",
        "LejepaId.Converse.score",
        "LejepaId.Converse.twice_differentiable",
    ),
    "LejepaId.Mehler.model_alignment_ou": (
        "LejepaId.Dirichlet.fprod",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.HermiteGauss.gexp",
        "LejepaId.HermiteModel.Build_HEncoder",
        "LejepaId.HermiteModel.HEncoder",
        "LejepaId.HermiteModel.He",
        "LejepaId.HermiteModel.basis",
        "LejepaId.HermiteModel.coef",
        "LejepaId.HermiteModel.halignment",
        "LejepaId.HermiteModel.hdeg",
        "LejepaId.HermiteModel.heval",
        "LejepaId.HermiteModel.mdeg",
        "LejepaId.HermiteModel.nsum",
        "LejepaId.HermiteModel.psi",
        "LejepaId.HermiteModel.size",
        "LejepaId.HermiteN.gexpn",
        "LejepaId.HermiteN.gintegrable",
        "LejepaId.HermiteN.vset",
        "LejepaId.Mehler.ou",
        "LejepaId.Prelude.dot",
        "LejepaId.Prelude.fsum",
        "LejepaId.Prelude.nsq",
        "LejepaId.Prelude.vec",
        "LejepaId.Prelude.vsub",
    ),
    "LejepaId.Mehler.forward_identifiability_model_ou": (
        "LejepaId.Dirichlet.fprod",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.HermiteGauss.gexp",
        "LejepaId.HermiteModel.Build_HEncoder",
        "LejepaId.HermiteModel.HEncoder",
        "LejepaId.HermiteModel.He",
        "LejepaId.HermiteModel.basis",
        "LejepaId.HermiteModel.coef",
        "LejepaId.HermiteModel.heval",
        "LejepaId.HermiteModel.psi",
        "LejepaId.HermiteModel.size",
        "LejepaId.HermiteN.gexpn",
        "LejepaId.HermiteN.gwhitened_n",
        "LejepaId.HermiteN.vset",
        "LejepaId.Mehler.ou",
        "LejepaId.Mehler.ou_alignment",
        "LejepaId.Prelude.dot",
        "LejepaId.Prelude.fsum",
        "LejepaId.Prelude.kron",
        "LejepaId.Prelude.mapply",
        "LejepaId.Prelude.mat",
        "LejepaId.Prelude.nsq",
        "LejepaId.Prelude.orthogonal",
        "LejepaId.Prelude.vec",
        "LejepaId.Prelude.veq",
        "LejepaId.Prelude.vsub",
    ),
    "LejepaId.Mehler.approx_identifiability_model_ou": (
        "LejepaId.Approximate.D_of",
        "LejepaId.Approximate.kappa",
        "LejepaId.Approximate.thm3_bound",
        "LejepaId.Dirichlet.fprod",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.HermiteGauss.gexp",
        "LejepaId.HermiteModel.Build_HEncoder",
        "LejepaId.HermiteModel.HEncoder",
        "LejepaId.HermiteModel.He",
        "LejepaId.HermiteModel.basis",
        "LejepaId.HermiteModel.coef",
        "LejepaId.HermiteModel.heval",
        "LejepaId.HermiteModel.psi",
        "LejepaId.HermiteModel.size",
        "LejepaId.HermiteN.gexpn",
        "LejepaId.HermiteN.vset",
        "LejepaId.Mehler.ou",
        "LejepaId.Mehler.ou_alignment",
        "LejepaId.Prelude.dot",
        "LejepaId.Prelude.fsum",
        "LejepaId.Prelude.kron",
        "LejepaId.Prelude.mapply",
        "LejepaId.Prelude.mat",
        "LejepaId.Prelude.nsq",
        "LejepaId.Prelude.orthogonal",
        "LejepaId.Prelude.vec",
        "LejepaId.Prelude.vsub",
    ),
    "LejepaId.Dirichlet.dirichlet_identifiability_n": (
        "LejepaId.Dirichlet.det",
        "LejepaId.Dirichlet.dirichlet_energy",
        "LejepaId.Dirichlet.dirichlet_optimal",
        "LejepaId.Dirichlet.gram",
        "LejepaId.Dirichlet.has_jacobian",
        "LejepaId.Dirichlet.is_expectation",
        "LejepaId.Dirichlet.log_volume",
        "LejepaId.Dirichlet.minor",
        "LejepaId.Dirichlet.mtrace",
        "LejepaId.Dirichlet.skip",
        "LejepaId.Prelude.fsum",
        "LejepaId.Prelude.kron",
        "LejepaId.Prelude.mapply",
        "LejepaId.Prelude.mat",
        "LejepaId.Prelude.vadd",
        "LejepaId.Prelude.vec",
        "LejepaId.Prelude.veq",
        "LejepaId.Prelude.vscal",
    ),
    "LejepaId.GaussianExpectation.gexp_is_expectation": (
        "LejepaId.Dirichlet.is_expectation",
        "LejepaId.GaussianExpectation.gintegrable1",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.HermiteGauss.gexp",
    ),
    "LejepaId.GaussianExpectation.gexp_faithful": (
        "LejepaId.GaussianExpectation.gintegrable1",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.HermiteGauss.gexp",
    ),
    "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss1": (
        "LejepaId.Dirichlet.det",
        "LejepaId.Dirichlet.dirichlet_energy",
        "LejepaId.Dirichlet.dirichlet_optimal",
        "LejepaId.Dirichlet.gram",
        "LejepaId.Dirichlet.has_jacobian",
        "LejepaId.Dirichlet.log_volume",
        "LejepaId.Dirichlet.minor",
        "LejepaId.Dirichlet.mtrace",
        "LejepaId.Dirichlet.skip",
        "LejepaId.GaussianExpectation.gclass1",
        "LejepaId.GaussianExpectation.gexp1",
        "LejepaId.GaussianExpectation.gintegrable1",
        "LejepaId.GaussianExpectation.line",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.HermiteGauss.gexp",
        "LejepaId.Prelude.fsum",
        "LejepaId.Prelude.kron",
        "LejepaId.Prelude.mapply",
        "LejepaId.Prelude.mat",
        "LejepaId.Prelude.vadd",
        "LejepaId.Prelude.vec",
        "LejepaId.Prelude.veq",
        "LejepaId.Prelude.vscal",
    ),
    "LejepaId.GaussianExpectation.gexpn_is_expectation": (
        "LejepaId.Dirichlet.is_expectation",
        "LejepaId.GaussianExpectation.gclass",
        "LejepaId.GaussianExpectation.gintegrable1",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.HermiteGauss.gexp",
        "LejepaId.HermiteN.gexpn",
        "LejepaId.HermiteN.vset",
        "LejepaId.Prelude.vec",
    ),
    "LejepaId.GaussianExpectation.gexpn_faithful": (
        "LejepaId.GaussianExpectation.gclass",
        "LejepaId.GaussianExpectation.gintegrable1",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.HermiteGauss.gexp",
        "LejepaId.HermiteN.gexpn",
        "LejepaId.HermiteN.vset",
        "LejepaId.Prelude.vec",
    ),
    "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss": (
        "LejepaId.Dirichlet.det",
        "LejepaId.Dirichlet.dirichlet_energy",
        "LejepaId.Dirichlet.dirichlet_optimal",
        "LejepaId.Dirichlet.gram",
        "LejepaId.Dirichlet.has_jacobian",
        "LejepaId.Dirichlet.log_volume",
        "LejepaId.Dirichlet.minor",
        "LejepaId.Dirichlet.mtrace",
        "LejepaId.Dirichlet.skip",
        "LejepaId.GaussianExpectation.gclass",
        "LejepaId.GaussianExpectation.gintegrable1",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.HermiteGauss.gexp",
        "LejepaId.HermiteN.gexpn",
        "LejepaId.HermiteN.vset",
        "LejepaId.Prelude.fsum",
        "LejepaId.Prelude.kron",
        "LejepaId.Prelude.mapply",
        "LejepaId.Prelude.mat",
        "LejepaId.Prelude.vadd",
        "LejepaId.Prelude.vec",
        "LejepaId.Prelude.veq",
        "LejepaId.Prelude.vscal",
    ),
    "LejepaId.Approximate.kappa_pos": ("LejepaId.Approximate.kappa",),
    "LejepaId.Approximate.approx_identifiability": (
        "LejepaId.Approximate.D_of",
        "LejepaId.Approximate.kappa",
        "LejepaId.Approximate.thm3_bound",
    ),
    "LejepaId.Planning.step_push": ("LejepaId.Planning.pushed",),
    "LejepaId.Planning.cost_push": (
        "LejepaId.Planning.pushed",
        "LejepaId.Planning.total_cost",
    ),
    "LejepaId.Planning.planning_cost_equal": (
        "LejepaId.Planning.pushed",
        "LejepaId.Planning.total_cost",
    ),
    "LejepaId.Planning.planning_minimizers_coincide": (
        "LejepaId.Planning.is_minimizer",
        "LejepaId.Planning.pushed",
        "LejepaId.Planning.total_cost",
    ),
    "LejepaId.Planning.planning_values_coincide": (
        "LejepaId.Planning.is_opt_value",
        "LejepaId.Planning.pushed",
        "LejepaId.Planning.total_cost",
    ),
    "LejepaId.Planning.planning_orthogonal_cost": (
        "LejepaId.Planning.pushed_Q",
        "LejepaId.Planning.total_cost",
        "LejepaId.Planning.transpose",
        "LejepaId.Prelude.fsum",
        "LejepaId.Prelude.kron",
        "LejepaId.Prelude.mapply",
        "LejepaId.Prelude.mat",
        "LejepaId.Prelude.orthogonal",
        "LejepaId.Prelude.vec",
        "LejepaId.Prelude.veq",
    ),
    "LejepaId.Planning.planning_orthogonal_minimizers": (
        "LejepaId.Planning.is_minimizer",
        "LejepaId.Planning.pushed_Q",
        "LejepaId.Planning.total_cost",
        "LejepaId.Planning.transpose",
        "LejepaId.Prelude.fsum",
        "LejepaId.Prelude.kron",
        "LejepaId.Prelude.mapply",
        "LejepaId.Prelude.mat",
        "LejepaId.Prelude.orthogonal",
        "LejepaId.Prelude.vec",
        "LejepaId.Prelude.veq",
    ),
    "LejepaId.Planning.planning_orthogonal_values": (
        "LejepaId.Planning.is_opt_value",
        "LejepaId.Planning.pushed_Q",
        "LejepaId.Planning.total_cost",
        "LejepaId.Planning.transpose",
        "LejepaId.Prelude.fsum",
        "LejepaId.Prelude.kron",
        "LejepaId.Prelude.mapply",
        "LejepaId.Prelude.mat",
        "LejepaId.Prelude.orthogonal",
        "LejepaId.Prelude.vec",
        "LejepaId.Prelude.veq",
    ),
    "LejepaId.Planning.pushed_kernel_markov": (
        "LejepaId.Planning.latent_states",
        "LejepaId.Planning.lsum",
        "LejepaId.Planning.markov_kernel",
        "LejepaId.Planning.pushed_kernel",
    ),
    "LejepaId.Planning.stochastic_cost_equal": (
        "LejepaId.Planning.exp_cost",
        "LejepaId.Planning.latent_states",
        "LejepaId.Planning.lsum",
        "LejepaId.Planning.pushed_kernel",
    ),
    "LejepaId.Planning.stochastic_minimizers_coincide": (
        "LejepaId.Planning.exp_cost",
        "LejepaId.Planning.is_stoch_minimizer",
        "LejepaId.Planning.latent_states",
        "LejepaId.Planning.lsum",
        "LejepaId.Planning.pushed_kernel",
    ),
    "LejepaId.Planning.stochastic_values_coincide": (
        "LejepaId.Planning.exp_cost",
        "LejepaId.Planning.is_stoch_value",
        "LejepaId.Planning.latent_states",
        "LejepaId.Planning.lsum",
        "LejepaId.Planning.pushed_kernel",
    ),
    "LejepaId.IntegrationOrder.gexpn_sumprod_order": (
        "LejepaId.Dirichlet.fprod",
        "LejepaId.GaussianMoments.IsPoly",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.GaussianMoments.poly_const",
        "LejepaId.GaussianMoments.poly_ext",
        "LejepaId.GaussianMoments.poly_plus",
        "LejepaId.GaussianMoments.poly_xmul",
        "LejepaId.HermiteGauss.gexp",
        "LejepaId.HermiteN.gexpn",
        "LejepaId.HermiteN.gintegrable",
        "LejepaId.HermiteN.sumprod",
        "LejepaId.HermiteN.vset",
        "LejepaId.IntegrationOrder.is_perm",
        "LejepaId.IntegrationOrder.vperm",
        "LejepaId.Prelude.fsum",
        "LejepaId.Prelude.vec",
    ),
    "LejepaId.IntegrationOrder.model_alignment_order": (
        "LejepaId.Dirichlet.fprod",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.HermiteGauss.gexp",
        "LejepaId.HermiteModel.Build_HEncoder",
        "LejepaId.HermiteModel.HEncoder",
        "LejepaId.HermiteModel.He",
        "LejepaId.HermiteModel.basis",
        "LejepaId.HermiteModel.coef",
        "LejepaId.HermiteModel.heval",
        "LejepaId.HermiteModel.psi",
        "LejepaId.HermiteModel.size",
        "LejepaId.HermiteN.gexpn",
        "LejepaId.HermiteN.gintegrable",
        "LejepaId.HermiteN.vset",
        "LejepaId.IntegrationOrder.is_perm",
        "LejepaId.IntegrationOrder.vperm",
        "LejepaId.Mehler.ou",
        "LejepaId.Mehler.ou_alignment",
        "LejepaId.Prelude.dot",
        "LejepaId.Prelude.fsum",
        "LejepaId.Prelude.nsq",
        "LejepaId.Prelude.vec",
        "LejepaId.Prelude.vsub",
    ),
    "LejepaId.GaussianExpectation.gauss_log_volume_zero": (
        "LejepaId.Dirichlet.det",
        "LejepaId.Dirichlet.gram",
        "LejepaId.Dirichlet.log_volume",
        "LejepaId.Dirichlet.minor",
        "LejepaId.Dirichlet.skip",
        "LejepaId.GaussianExpectation.gauss_jacobian_density",
        "LejepaId.GaussianExpectation.gclass",
        "LejepaId.GaussianExpectation.gintegrable1",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.HermiteGauss.gexp",
        "LejepaId.HermiteN.gexpn",
        "LejepaId.HermiteN.vset",
        "LejepaId.Prelude.dot",
        "LejepaId.Prelude.fsum",
        "LejepaId.Prelude.mat",
        "LejepaId.Prelude.nsq",
        "LejepaId.Prelude.vec",
    ),
    "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss_density": (
        "LejepaId.Dirichlet.det",
        "LejepaId.Dirichlet.dirichlet_energy",
        "LejepaId.Dirichlet.gram",
        "LejepaId.Dirichlet.has_jacobian",
        "LejepaId.Dirichlet.log_volume",
        "LejepaId.Dirichlet.minor",
        "LejepaId.Dirichlet.mtrace",
        "LejepaId.Dirichlet.skip",
        "LejepaId.GaussianExpectation.gauss_jacobian_density",
        "LejepaId.GaussianExpectation.gclass",
        "LejepaId.GaussianExpectation.gintegrable1",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.HermiteGauss.gexp",
        "LejepaId.HermiteN.gexpn",
        "LejepaId.HermiteN.vset",
        "LejepaId.Prelude.dot",
        "LejepaId.Prelude.fsum",
        "LejepaId.Prelude.kron",
        "LejepaId.Prelude.mapply",
        "LejepaId.Prelude.mat",
        "LejepaId.Prelude.nsq",
        "LejepaId.Prelude.vadd",
        "LejepaId.Prelude.vec",
        "LejepaId.Prelude.veq",
        "LejepaId.Prelude.vscal",
    ),
    "LejepaId.GaussianExpectation.gauss_whitened_energy": (
        "LejepaId.GaussianExpectation.gclass",
        "LejepaId.GaussianExpectation.gintegrable1",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.HermiteGauss.gexp",
        "LejepaId.HermiteN.gexpn",
        "LejepaId.HermiteN.vset",
        "LejepaId.Prelude.dot",
        "LejepaId.Prelude.fsum",
        "LejepaId.Prelude.nsq",
        "LejepaId.Prelude.vec",
    ),
    "LejepaId.GaussianExpectation.dirichlet_identifiability_gauss_whitened": (
        "LejepaId.Dirichlet.det",
        "LejepaId.Dirichlet.dirichlet_energy",
        "LejepaId.Dirichlet.gram",
        "LejepaId.Dirichlet.has_jacobian",
        "LejepaId.Dirichlet.log_volume",
        "LejepaId.Dirichlet.minor",
        "LejepaId.Dirichlet.mtrace",
        "LejepaId.Dirichlet.skip",
        "LejepaId.GaussianExpectation.gauss_jacobian_density",
        "LejepaId.GaussianExpectation.gclass",
        "LejepaId.GaussianExpectation.gintegrable1",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.HermiteGauss.gexp",
        "LejepaId.HermiteN.gexpn",
        "LejepaId.HermiteN.vset",
        "LejepaId.Prelude.dot",
        "LejepaId.Prelude.fsum",
        "LejepaId.Prelude.kron",
        "LejepaId.Prelude.mapply",
        "LejepaId.Prelude.mat",
        "LejepaId.Prelude.nsq",
        "LejepaId.Prelude.vadd",
        "LejepaId.Prelude.vec",
        "LejepaId.Prelude.veq",
        "LejepaId.Prelude.vscal",
    ),
    "LejepaId.GaussFubini.gexp_fubini": (
        "LejepaId.GaussFubini.poly_growth2",
        "LejepaId.GaussianExpectation.gintegrable1",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.HermiteGauss.gexp",
    ),
    "LejepaId.GaussFubiniN.gexpn_fclass_order": (
        "LejepaId.GaussFubiniN.box",
        "LejepaId.GaussFubiniN.fclass",
        "LejepaId.GaussFubiniN.near",
        "LejepaId.GaussFubiniN.pgrowth",
        "LejepaId.GaussFubiniN.ucont",
        "LejepaId.GaussianExpectation.first_coords",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.HermiteGauss.gexp",
        "LejepaId.HermiteN.gexpn",
        "LejepaId.HermiteN.gintegrable",
        "LejepaId.HermiteN.vset",
        "LejepaId.IntegrationOrder.is_perm",
        "LejepaId.IntegrationOrder.vperm",
        "LejepaId.Prelude.dot",
        "LejepaId.Prelude.fsum",
        "LejepaId.Prelude.nsq",
        "LejepaId.Prelude.vec",
    ),
    "LejepaId.GaussFubiniN.fclass_order_gclass": (
        "LejepaId.GaussFubiniN.box",
        "LejepaId.GaussFubiniN.fclass",
        "LejepaId.GaussFubiniN.near",
        "LejepaId.GaussFubiniN.pgrowth",
        "LejepaId.GaussFubiniN.ucont",
        "LejepaId.GaussianExpectation.first_coords",
        "LejepaId.GaussianExpectation.gclass",
        "LejepaId.GaussianExpectation.gintegrable1",
        "LejepaId.GaussianMoments.Z",
        "LejepaId.GaussianMoments.gauss",
        "LejepaId.GaussianMoments.gint",
        "LejepaId.HermiteGauss.gexp",
        "LejepaId.HermiteN.gexpn",
        "LejepaId.HermiteN.vset",
        "LejepaId.IntegrationOrder.is_perm",
        "LejepaId.IntegrationOrder.vperm",
        "LejepaId.Prelude.dot",
        "LejepaId.Prelude.fsum",
        "LejepaId.Prelude.nsq",
        "LejepaId.Prelude.vec",
    ),
}

#: Definition -> its printed text.
DEFINITIONS: dict[str, str] = {
    "LejepaId.Approximate.D_of": (
        "Approximate.D_of = fun rho delta : Rdefinitions.RbaseSymbolsImpl.R => "
        "Rdefinitions.Rdiv delta (Approximate.kappa rho) : forall (_ : "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : Rdefinitions.RbaseSymbolsImpl.R), "
        "Rdefinitions.RbaseSymbolsImpl.R Arguments Approximate.D_of (rho delta)%R_scope"
    ),
    "LejepaId.Approximate.kappa": (
        "Approximate.kappa = fun rho : Rdefinitions.RbaseSymbolsImpl.R => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (Rdefinitions.RbaseSymbolsImpl.Rmult "
        "(Rdefinitions.IZR (BinNums.Zpos (BinNums.xO BinNums.xH))) rho) (Rdefinitions.Rminus "
        "(Rdefinitions.IZR (BinNums.Zpos BinNums.xH)) rho) : forall _ : "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R Arguments "
        "Approximate.kappa rho%R_scope"
    ),
    "LejepaId.Approximate.thm3_bound": (
        "Approximate.thm3_bound = fun rho delta eps : Rdefinitions.RbaseSymbolsImpl.R => "
        "Rdefinitions.RbaseSymbolsImpl.Rplus (Approximate.D_of rho delta) (Rpow_def.pow "
        "(Rdefinitions.RbaseSymbolsImpl.Rplus eps (Approximate.D_of rho delta)) (S (S O))) : "
        "forall (_ : Rdefinitions.RbaseSymbolsImpl.R) (_ : Rdefinitions.RbaseSymbolsImpl.R) "
        "(_ : Rdefinitions.RbaseSymbolsImpl.R), Rdefinitions.RbaseSymbolsImpl.R Arguments "
        "Approximate.thm3_bound (rho delta eps)%R_scope"
    ),
    "LejepaId.Converse.first_nonconst_eigenfunction": (
        "Converse.first_nonconst_eigenfunction = fun (p f : forall _ : "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R) (lam : "
        "Rdefinitions.RbaseSymbolsImpl.R) => and (Converse.is_eigenfunction p f lam) (and "
        "(Converse.nonconstant f) (and (Rdefinitions.RbaseSymbolsImpl.Rlt (Rdefinitions.IZR "
        "BinNums.Z0) lam) (forall (g : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (mu : Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "Converse.is_eigenfunction p g mu) (_ : Converse.nonconstant g), Rdefinitions.Rle lam "
        "mu))) : forall (_ : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : Rdefinitions.RbaseSymbolsImpl.R), Prop "
        "Arguments Converse.first_nonconst_eigenfunction (p f)%function_scope lam%R_scope"
    ),
    "LejepaId.Converse.gaussian_form": (
        "Converse.gaussian_form = fun K c m x : Rdefinitions.RbaseSymbolsImpl.R => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult K (Rtrigo_def.exp "
        "(Rdefinitions.RbaseSymbolsImpl.Rmult (Rdefinitions.RbaseSymbolsImpl.Ropp "
        "(Rdefinitions.Rdiv c (Rdefinitions.IZR (BinNums.Zpos (BinNums.xO BinNums.xH))))) "
        "(Rpow_def.pow (Rdefinitions.Rminus x m) (S (S O))))) : forall (_ : "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : Rdefinitions.RbaseSymbolsImpl.R), "
        "Rdefinitions.RbaseSymbolsImpl.R Arguments Converse.gaussian_form (K c m x)%R_scope"
    ),
    "LejepaId.Converse.generator": (
        "Converse.generator = fun (p f : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (x : Rdefinitions.RbaseSymbolsImpl.R) => "
        "Rdefinitions.RbaseSymbolsImpl.Rplus (Derive.Derive (Derive.Derive f) x) "
        "(Rdefinitions.RbaseSymbolsImpl.Rmult (Converse.score p x) (Derive.Derive f x)) : "
        "forall (_ : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : Rdefinitions.RbaseSymbolsImpl.R), "
        "Rdefinitions.RbaseSymbolsImpl.R Arguments Converse.generator (p f)%function_scope "
        "x%R_scope"
    ),
    "LejepaId.Converse.in_L2": (
        "Converse.in_L2 = fun p f : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R => @RInt_gen.ex_RInt_gen Hierarchy.R_NormedModule "
        "(fun x : Rdefinitions.RbaseSymbolsImpl.R => Rdefinitions.RbaseSymbolsImpl.Rmult "
        "(Rpow_def.pow (f x) (S (S O))) (p x)) (Hierarchy.Rbar_locally Rbar.m_infty) "
        "(Hierarchy.Rbar_locally Rbar.p_infty) : forall (_ : forall _ : "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R) (_ : forall _ : "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R), Prop Arguments "
        "Converse.in_L2 (p f)%function_scope"
    ),
    "LejepaId.Converse.is_eigenfunction": (
        "Converse.is_eigenfunction = fun (p f : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (lam : Rdefinitions.RbaseSymbolsImpl.R) => and "
        "(Converse.in_L2 p f) (and (Converse.twice_differentiable f) (forall x : "
        "Rdefinitions.RbaseSymbolsImpl.R, @eq Rdefinitions.RbaseSymbolsImpl.R "
        "(Converse.generator p f x) (Rdefinitions.RbaseSymbolsImpl.Rmult "
        "(Rdefinitions.RbaseSymbolsImpl.Ropp lam) (f x)))) : forall (_ : forall _ : "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R) (_ : forall _ : "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "Rdefinitions.RbaseSymbolsImpl.R), Prop Arguments Converse.is_eigenfunction (p "
        "f)%function_scope lam%R_scope"
    ),
    "LejepaId.Converse.nonconstant": (
        "Converse.nonconstant = fun f : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R => @ex Rdefinitions.RbaseSymbolsImpl.R (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => @ex Rdefinitions.RbaseSymbolsImpl.R (fun y : "
        "Rdefinitions.RbaseSymbolsImpl.R => not (@eq Rdefinitions.RbaseSymbolsImpl.R (f x) (f "
        "y)))) : forall _ : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R, Prop Arguments Converse.nonconstant "
        "f%function_scope"
    ),
    "LejepaId.Converse.score": (
        "Converse.score = fun (p : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (x : Rdefinitions.RbaseSymbolsImpl.R) => "
        "Rdefinitions.Rdiv (Derive.Derive p x) (p x) : forall (_ : forall _ : "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "Rdefinitions.RbaseSymbolsImpl.R), Rdefinitions.RbaseSymbolsImpl.R Arguments "
        "Converse.score p%function_scope x%R_scope"
    ),
    "LejepaId.Converse.twice_differentiable": (
        "Converse.twice_differentiable = fun f : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R => forall x : Hierarchy.AbsRing.sort "
        "Hierarchy.R_AbsRing, and (@Derive.ex_derive Hierarchy.R_AbsRing "
        "Hierarchy.R_NormedModule f x) (@Derive.ex_derive Hierarchy.R_AbsRing "
        "Hierarchy.R_NormedModule (Derive.Derive f) x) : forall _ : forall _ : "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R, Prop Arguments "
        "Converse.twice_differentiable f%function_scope"
    ),
    "LejepaId.Dirichlet.det": (
        "Dirichlet.det = fix det (n : nat) (A : Prelude.mat) {struct n} : "
        "Rdefinitions.RbaseSymbolsImpl.R := match n return Rdefinitions.RbaseSymbolsImpl.R "
        "with | O => Rdefinitions.IZR (BinNums.Zpos BinNums.xH) | S m => Prelude.fsum (S m) "
        "(fun i : nat => Rdefinitions.RbaseSymbolsImpl.Rmult "
        "(Rdefinitions.RbaseSymbolsImpl.Rmult (Rpow_def.pow (Rdefinitions.IZR (BinNums.Zneg "
        "BinNums.xH)) i) (A i O)) (det m (Dirichlet.minor i O A))) end : forall (_ : nat) (_ "
        ": Prelude.mat), Rdefinitions.RbaseSymbolsImpl.R Arguments Dirichlet.det n%nat_scope "
        "A"
    ),
    "LejepaId.Dirichlet.dirichlet_energy": (
        "Dirichlet.dirichlet_energy = fun (n : nat) (J : Prelude.mat) => Dirichlet.mtrace n "
        "(Dirichlet.gram n J) : forall (_ : nat) (_ : Prelude.mat), "
        "Rdefinitions.RbaseSymbolsImpl.R Arguments Dirichlet.dirichlet_energy n%nat_scope J"
    ),
    "LejepaId.Dirichlet.dirichlet_optimal": (
        "Dirichlet.dirichlet_optimal = fun (n : nat) (I : forall _ : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R, Prop) (E : forall _ : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R) (J : forall _ : "
        "Prelude.vec, Prelude.mat) => and (forall x : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.Rlt (Rdefinitions.IZR BinNums.Z0) (Dirichlet.det n "
        "(Dirichlet.gram n (J x)))) (and (I (fun x : Prelude.vec => Dirichlet.log_volume n (J "
        "x))) (and (I (fun x : Prelude.vec => Dirichlet.dirichlet_energy n (J x))) (and (I "
        "(fun x : Prelude.vec => Rtrigo_def.exp (Rdefinitions.RbaseSymbolsImpl.Rmult "
        "(Rdefinitions.RinvImpl.Rinv (Raxioms.INR n)) (Dirichlet.log_volume n (J x))))) (and "
        "(@eq Rdefinitions.RbaseSymbolsImpl.R (E (fun x : Prelude.vec => Dirichlet.log_volume "
        "n (J x))) (Rdefinitions.IZR BinNums.Z0)) (@eq Rdefinitions.RbaseSymbolsImpl.R (E "
        "(fun x : Prelude.vec => Dirichlet.dirichlet_energy n (J x))) (Raxioms.INR n)))))) : "
        "forall (_ : nat) (_ : forall _ : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R, Prop) (_ : forall _ : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R) (_ : forall _ : "
        "Prelude.vec, Prelude.mat), Prop Arguments Dirichlet.dirichlet_optimal n%nat_scope (I "
        "E J)%function_scope"
    ),
    "LejepaId.Dirichlet.fprod": (
        "Dirichlet.fprod = fix fprod (n : nat) (f : forall _ : nat, "
        "Rdefinitions.RbaseSymbolsImpl.R) {struct n} : Rdefinitions.RbaseSymbolsImpl.R := "
        "match n return Rdefinitions.RbaseSymbolsImpl.R with | O => Rdefinitions.IZR "
        "(BinNums.Zpos BinNums.xH) | S m => Rdefinitions.RbaseSymbolsImpl.Rmult (fprod m f) "
        "(f m) end : forall (_ : nat) (_ : forall _ : nat, Rdefinitions.RbaseSymbolsImpl.R), "
        "Rdefinitions.RbaseSymbolsImpl.R Arguments Dirichlet.fprod n%nat_scope "
        "f%function_scope"
    ),
    "LejepaId.Dirichlet.gram": (
        "Dirichlet.gram = fun (n : nat) (J : Prelude.mat) (i k : nat) => Prelude.fsum n (fun "
        "j : nat => Rdefinitions.RbaseSymbolsImpl.Rmult (J j i) (J j k)) : forall (_ : nat) "
        "(_ : Prelude.mat), Prelude.mat Arguments Dirichlet.gram n%nat_scope J _ _"
    ),
    "LejepaId.Dirichlet.has_jacobian": (
        "Dirichlet.has_jacobian = fun (n : nat) (h : forall _ : Prelude.vec, Prelude.vec) (J "
        ": forall _ : Prelude.vec, Prelude.mat) => forall (x v : Prelude.vec) (i : nat) (t : "
        "Hierarchy.AbsRing.sort Hierarchy.R_AbsRing), @Derive.is_derive Hierarchy.R_AbsRing "
        "Hierarchy.R_NormedModule (fun s : Hierarchy.AbsRing.sort Hierarchy.R_AbsRing => h "
        "(Prelude.vadd x (Prelude.vscal s v)) i) t (Prelude.mapply n (J (Prelude.vadd x "
        "(Prelude.vscal t v))) v i) : forall (_ : nat) (_ : forall _ : Prelude.vec, "
        "Prelude.vec) (_ : forall _ : Prelude.vec, Prelude.mat), Prop Arguments "
        "Dirichlet.has_jacobian n%nat_scope (h J)%function_scope"
    ),
    "LejepaId.Dirichlet.is_expectation": (
        "Dirichlet.is_expectation = fun (T : Type) (I : forall _ : forall _ : T, "
        "Rdefinitions.RbaseSymbolsImpl.R, Prop) (E : forall _ : forall _ : T, "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R) => and (forall c : "
        "Rdefinitions.RbaseSymbolsImpl.R, and (I (fun _ : T => c)) (@eq "
        "Rdefinitions.RbaseSymbolsImpl.R (E (fun _ : T => c)) c)) (and (forall (a b : "
        "Rdefinitions.RbaseSymbolsImpl.R) (f g : forall _ : T, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : I f) (_ : I g), and (I (fun t : T => "
        "Rdefinitions.RbaseSymbolsImpl.Rplus (Rdefinitions.RbaseSymbolsImpl.Rmult a (f t)) "
        "(Rdefinitions.RbaseSymbolsImpl.Rmult b (g t)))) (@eq Rdefinitions.RbaseSymbolsImpl.R "
        "(E (fun t : T => Rdefinitions.RbaseSymbolsImpl.Rplus "
        "(Rdefinitions.RbaseSymbolsImpl.Rmult a (f t)) (Rdefinitions.RbaseSymbolsImpl.Rmult b "
        "(g t)))) (Rdefinitions.RbaseSymbolsImpl.Rplus (Rdefinitions.RbaseSymbolsImpl.Rmult a "
        "(E f)) (Rdefinitions.RbaseSymbolsImpl.Rmult b (E g))))) (forall (f g : forall _ : T, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : I f) (_ : I g) (_ : forall t : T, "
        "Rdefinitions.Rle (f t) (g t)), Rdefinitions.Rle (E f) (E g))) : forall (T : Type) (_ "
        ": forall _ : forall _ : T, Rdefinitions.RbaseSymbolsImpl.R, Prop) (_ : forall _ : "
        "forall _ : T, Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R), "
        "Prop Arguments Dirichlet.is_expectation T%type_scope (I E)%function_scope"
    ),
    "LejepaId.Dirichlet.log_volume": (
        "Dirichlet.log_volume = fun (n : nat) (J : Prelude.mat) => Rpower.ln (Dirichlet.det n "
        "(Dirichlet.gram n J)) : forall (_ : nat) (_ : Prelude.mat), "
        "Rdefinitions.RbaseSymbolsImpl.R Arguments Dirichlet.log_volume n%nat_scope J"
    ),
    "LejepaId.Dirichlet.minor": (
        "Dirichlet.minor = fun (i j : nat) (A : Prelude.mat) (r c : nat) => A (Dirichlet.skip "
        "i r) (Dirichlet.skip j c) : forall (_ : nat) (_ : nat) (_ : Prelude.mat), "
        "Prelude.mat Arguments Dirichlet.minor (i j)%nat_scope A _ _"
    ),
    "LejepaId.Dirichlet.mtrace": (
        "Dirichlet.mtrace = fun (n : nat) (A : Prelude.mat) => Prelude.fsum n (fun i : nat => "
        "A i i) : forall (_ : nat) (_ : Prelude.mat), Rdefinitions.RbaseSymbolsImpl.R "
        "Arguments Dirichlet.mtrace n%nat_scope A"
    ),
    "LejepaId.Dirichlet.skip": (
        "Dirichlet.skip = fun i r : nat => match PeanoNat.Nat.ltb r i return nat with | true "
        "=> r | false => S r end : forall (_ : nat) (_ : nat), nat Arguments Dirichlet.skip "
        "(i r)%nat_scope"
    ),
    "LejepaId.GaussianExpectation.gclass": (
        "GaussianExpectation.gclass = fix gclass (n : nat) (F : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R) {struct n} : Prop := match n return Prop with | O "
        "=> forall t : Prelude.vec, @eq Rdefinitions.RbaseSymbolsImpl.R (F t) (F (fun _ : nat "
        "=> Rdefinitions.IZR BinNums.Z0)) | S m => and (forall z : Prelude.vec, and (forall x "
        ": Hierarchy.UniformSpace.sort Hierarchy.R_UniformSpace, @Continuity.continuous "
        "Hierarchy.R_UniformSpace Hierarchy.R_UniformSpace (fun y : "
        "Hierarchy.UniformSpace.sort Hierarchy.R_UniformSpace => F (HermiteN.vset z m y)) x) "
        "(GaussianExpectation.gintegrable1 (fun x : Rdefinitions.RbaseSymbolsImpl.R => F "
        "(HermiteN.vset z m x)))) (gclass m (fun z : Prelude.vec => HermiteGauss.gexp (fun x "
        ": Rdefinitions.RbaseSymbolsImpl.R => F (HermiteN.vset z m x)))) end : forall (_ : "
        "nat) (_ : forall _ : Prelude.vec, Rdefinitions.RbaseSymbolsImpl.R), Prop Arguments "
        "GaussianExpectation.gclass n%nat_scope F%function_scope"
    ),
    "LejepaId.GaussianExpectation.gclass1": (
        "GaussianExpectation.gclass1 = fun F : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R => and (forall t : Prelude.vec, @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (F t) (F (GaussianExpectation.line (t O)))) (and "
        "(forall x : Hierarchy.UniformSpace.sort Hierarchy.R_UniformSpace, "
        "@Continuity.continuous Hierarchy.R_UniformSpace Hierarchy.R_UniformSpace (fun y : "
        "Hierarchy.UniformSpace.sort Hierarchy.R_UniformSpace => F (GaussianExpectation.line "
        "y)) x) (GaussianExpectation.gintegrable1 (fun x : Rdefinitions.RbaseSymbolsImpl.R => "
        "F (GaussianExpectation.line x)))) : forall _ : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R, Prop Arguments GaussianExpectation.gclass1 "
        "F%function_scope"
    ),
    "LejepaId.GaussianExpectation.gexp1": (
        "GaussianExpectation.gexp1 = fun F : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R => HermiteGauss.gexp (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => F (GaussianExpectation.line x)) : forall _ : "
        "forall _ : Prelude.vec, Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R Arguments GaussianExpectation.gexp1 F%function_scope"
    ),
    "LejepaId.GaussianExpectation.gintegrable1": (
        "GaussianExpectation.gintegrable1 = fun f : forall _ : "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R => "
        "@RInt_gen.ex_RInt_gen Hierarchy.R_NormedModule (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => Rdefinitions.RbaseSymbolsImpl.Rmult (f x) "
        "(GaussianMoments.gauss x)) (Hierarchy.Rbar_locally Rbar.m_infty) "
        "(Hierarchy.Rbar_locally Rbar.p_infty) : forall _ : forall _ : "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R, Prop Arguments "
        "GaussianExpectation.gintegrable1 f%function_scope"
    ),
    "LejepaId.GaussianExpectation.line": (
        "GaussianExpectation.line = fun (x : Rdefinitions.RbaseSymbolsImpl.R) (_ : nat) => x "
        ": forall _ : Rdefinitions.RbaseSymbolsImpl.R, Prelude.vec Arguments "
        "GaussianExpectation.line x%R_scope _"
    ),
    "LejepaId.GaussianMoments.Z": (
        "GaussianMoments.Z = @RInt_gen.RInt_gen Hierarchy.R_CompleteNormedModule "
        "GaussianMoments.gauss (Hierarchy.Rbar_locally Rbar.m_infty) (Hierarchy.Rbar_locally "
        "Rbar.p_infty) : Rdefinitions.RbaseSymbolsImpl.R"
    ),
    "LejepaId.GaussianMoments.gauss": (
        "GaussianMoments.gauss = fun x : Rdefinitions.RbaseSymbolsImpl.R => Rtrigo_def.exp "
        "(Rdefinitions.RbaseSymbolsImpl.Ropp (Rdefinitions.Rdiv (Rpow_def.pow x (S (S O))) "
        "(Rdefinitions.IZR (BinNums.Zpos (BinNums.xO BinNums.xH))))) : forall _ : "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R Arguments "
        "GaussianMoments.gauss x%R_scope"
    ),
    "LejepaId.GaussianMoments.gint": (
        "GaussianMoments.gint = fun f : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R => @RInt_gen.RInt_gen "
        "Hierarchy.R_CompleteNormedModule (fun x : Rdefinitions.RbaseSymbolsImpl.R => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (f x) (GaussianMoments.gauss x)) "
        "(Hierarchy.Rbar_locally Rbar.m_infty) (Hierarchy.Rbar_locally Rbar.p_infty) : forall "
        "_ : forall _ : Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R Arguments GaussianMoments.gint f%function_scope"
    ),
    "LejepaId.HermiteGauss.gexp": (
        "HermiteGauss.gexp = fun f : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R => Rdefinitions.Rdiv (GaussianMoments.gint f) "
        "GaussianMoments.Z : forall _ : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R Arguments "
        "HermiteGauss.gexp f%function_scope"
    ),
    "LejepaId.HermiteModel.Build_HEncoder": (
        "Variant HEncoder (n : nat) : Set := Build_HEncoder : forall (size : nat) (basis : "
        "forall (_ : nat) (_ : nat), nat) (_ : forall (_ : nat) (_ : nat), "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : forall (k k' : nat) (_ : lt k size) (_ : lt k' "
        "size) (_ : not (@eq nat k k')), @ex nat (fun j : nat => and (lt j n) (not (@eq nat "
        "(basis k j) (basis k' j))))), HermiteModel.HEncoder n. Arguments "
        "HermiteModel.HEncoder n%nat_scope Arguments HermiteModel.Build_HEncoder (n "
        "size)%nat_scope (basis coef distinct)%function_scope"
    ),
    "LejepaId.HermiteModel.HEncoder": (
        "Variant HEncoder (n : nat) : Set := Build_HEncoder : forall (size : nat) (basis : "
        "forall (_ : nat) (_ : nat), nat) (_ : forall (_ : nat) (_ : nat), "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : forall (k k' : nat) (_ : lt k size) (_ : lt k' "
        "size) (_ : not (@eq nat k k')), @ex nat (fun j : nat => and (lt j n) (not (@eq nat "
        "(basis k j) (basis k' j))))), HermiteModel.HEncoder n. Arguments "
        "HermiteModel.HEncoder n%nat_scope Arguments HermiteModel.Build_HEncoder (n "
        "size)%nat_scope (basis coef distinct)%function_scope"
    ),
    "LejepaId.HermiteModel.He": (
        "HermiteModel.He = fix He (d : nat) (x : Rdefinitions.RbaseSymbolsImpl.R) {struct d} "
        ": Rdefinitions.RbaseSymbolsImpl.R := match d return Rdefinitions.RbaseSymbolsImpl.R "
        "with | O => Rdefinitions.IZR (BinNums.Zpos BinNums.xH) | S d' => match d' return "
        "Rdefinitions.RbaseSymbolsImpl.R with | O => x | S d'' => Rdefinitions.Rminus "
        "(Rdefinitions.RbaseSymbolsImpl.Rmult x (He d' x)) "
        "(Rdefinitions.RbaseSymbolsImpl.Rmult (Raxioms.INR d') (He d'' x)) end end : forall "
        "(_ : nat) (_ : Rdefinitions.RbaseSymbolsImpl.R), Rdefinitions.RbaseSymbolsImpl.R "
        "Arguments HermiteModel.He d%nat_scope x%R_scope"
    ),
    "LejepaId.HermiteModel.basis": (
        "HermiteModel.basis = fun (n : nat) (h : HermiteModel.HEncoder n) => match h return "
        "(forall (_ : nat) (_ : nat), nat) with | @HermiteModel.Build_HEncoder _ size basis _ "
        "_ => basis end : forall (n : nat) (_ : HermiteModel.HEncoder n) (_ : nat) (_ : nat), "
        "nat Arguments HermiteModel.basis {n}%nat_scope h (_ _)%nat_scope"
    ),
    "LejepaId.HermiteModel.coef": (
        "HermiteModel.coef = fun (n : nat) (h : HermiteModel.HEncoder n) => match h return "
        "(forall (_ : nat) (_ : nat), Rdefinitions.RbaseSymbolsImpl.R) with | "
        "@HermiteModel.Build_HEncoder _ size basis coef _ => coef end : forall (n : nat) (_ : "
        "HermiteModel.HEncoder n) (_ : nat) (_ : nat), Rdefinitions.RbaseSymbolsImpl.R "
        "Arguments HermiteModel.coef {n}%nat_scope h (_ _)%nat_scope"
    ),
    "LejepaId.HermiteModel.halignment": (
        "HermiteModel.halignment = fun (n : nat) (h : HermiteModel.HEncoder n) (rho : "
        "Rdefinitions.RbaseSymbolsImpl.R) => Prelude.fsum n (fun i : nat => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (Rdefinitions.IZR (BinNums.Zpos (BinNums.xO "
        "BinNums.xH))) (Prelude.fsum (@HermiteModel.size n h) (fun k : nat => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (Rpow_def.pow (@HermiteModel.coef n h i k) (S (S "
        "O))) (Rdefinitions.Rminus (Rdefinitions.IZR (BinNums.Zpos BinNums.xH)) (Rpow_def.pow "
        "rho (@HermiteModel.hdeg n h k)))))) : forall (n : nat) (_ : HermiteModel.HEncoder n) "
        "(_ : Rdefinitions.RbaseSymbolsImpl.R), Rdefinitions.RbaseSymbolsImpl.R Arguments "
        "HermiteModel.halignment {n}%nat_scope h rho%R_scope"
    ),
    "LejepaId.HermiteModel.hdeg": (
        "HermiteModel.hdeg = fun (n : nat) (h : HermiteModel.HEncoder n) (k : nat) => "
        "HermiteModel.mdeg n (@HermiteModel.basis n h k) : forall (n : nat) (_ : "
        "HermiteModel.HEncoder n) (_ : nat), nat Arguments HermiteModel.hdeg {n}%nat_scope h "
        "k%nat_scope"
    ),
    "LejepaId.HermiteModel.heval": (
        "HermiteModel.heval = fun (n : nat) (h : HermiteModel.HEncoder n) (z : Prelude.vec) "
        "(i : nat) => Prelude.fsum (@HermiteModel.size n h) (fun k : nat => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (@HermiteModel.coef n h i k) (HermiteModel.psi n "
        "(@HermiteModel.basis n h k) z)) : forall (n : nat) (_ : HermiteModel.HEncoder n) (_ "
        ": Prelude.vec), Prelude.vec Arguments HermiteModel.heval {n}%nat_scope h z _"
    ),
    "LejepaId.HermiteModel.mdeg": (
        "HermiteModel.mdeg = fun (n : nat) (alpha : forall _ : nat, nat) => HermiteModel.nsum "
        "n alpha : forall (_ : nat) (_ : forall _ : nat, nat), nat Arguments "
        "HermiteModel.mdeg n%nat_scope alpha%function_scope"
    ),
    "LejepaId.HermiteModel.nsum": (
        "HermiteModel.nsum = fix nsum (n : nat) (f : forall _ : nat, nat) {struct n} : nat := "
        "match n return nat with | O => O | S m => Nat.add (nsum m f) (f m) end : forall (_ : "
        "nat) (_ : forall _ : nat, nat), nat Arguments HermiteModel.nsum n%nat_scope "
        "f%function_scope"
    ),
    "LejepaId.HermiteModel.psi": (
        "HermiteModel.psi = fun (n : nat) (alpha : forall _ : nat, nat) (z : Prelude.vec) => "
        "Dirichlet.fprod n (fun j : nat => Rdefinitions.Rdiv (HermiteModel.He (alpha j) (z "
        "j)) (R_sqrt.sqrt (Raxioms.INR (Factorial.fact (alpha j))))) : forall (_ : nat) (_ : "
        "forall _ : nat, nat) (_ : Prelude.vec), Rdefinitions.RbaseSymbolsImpl.R Arguments "
        "HermiteModel.psi n%nat_scope alpha%function_scope z"
    ),
    "LejepaId.HermiteModel.size": (
        "HermiteModel.size = fun (n : nat) (h : HermiteModel.HEncoder n) => match h return "
        "nat with | @HermiteModel.Build_HEncoder _ size basis _ _ => size end : forall (n : "
        "nat) (_ : HermiteModel.HEncoder n), nat Arguments HermiteModel.size {n}%nat_scope h"
    ),
    "LejepaId.HermiteN.gexpn": (
        "HermiteN.gexpn = fix gexpn (n : nat) (F : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R) {struct n} : Rdefinitions.RbaseSymbolsImpl.R := "
        "match n return Rdefinitions.RbaseSymbolsImpl.R with | O => F (fun _ : nat => "
        "Rdefinitions.IZR BinNums.Z0) | S m => gexpn m (fun z : Prelude.vec => "
        "HermiteGauss.gexp (fun x : Rdefinitions.RbaseSymbolsImpl.R => F (HermiteN.vset z m "
        "x))) end : forall (_ : nat) (_ : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R), Rdefinitions.RbaseSymbolsImpl.R Arguments "
        "HermiteN.gexpn n%nat_scope F%function_scope"
    ),
    "LejepaId.HermiteN.gintegrable": (
        "HermiteN.gintegrable = fix gintegrable (n : nat) (F : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R) {struct n} : Prop := match n return Prop with | O "
        "=> True | S m => and (forall z : Prelude.vec, @RInt_gen.ex_RInt_gen "
        "Hierarchy.R_NormedModule (fun x : Rdefinitions.RbaseSymbolsImpl.R => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (F (HermiteN.vset z m x)) (GaussianMoments.gauss "
        "x)) (Hierarchy.Rbar_locally Rbar.m_infty) (Hierarchy.Rbar_locally Rbar.p_infty)) "
        "(gintegrable m (fun z : Prelude.vec => HermiteGauss.gexp (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => F (HermiteN.vset z m x)))) end : forall (_ : nat) "
        "(_ : forall _ : Prelude.vec, Rdefinitions.RbaseSymbolsImpl.R), Prop Arguments "
        "HermiteN.gintegrable n%nat_scope F%function_scope"
    ),
    "LejepaId.HermiteN.gwhitened_n": (
        "HermiteN.gwhitened_n = fun (n : nat) (h : HermiteModel.HEncoder n) => and (forall (i "
        ": nat) (_ : lt i n), @eq Rdefinitions.RbaseSymbolsImpl.R (HermiteN.gexpn n (fun z : "
        "Prelude.vec => @HermiteModel.heval n h z i)) (Rdefinitions.IZR BinNums.Z0)) (forall "
        "(i l : nat) (_ : lt i n) (_ : lt l n), @eq Rdefinitions.RbaseSymbolsImpl.R "
        "(Rdefinitions.Rminus (HermiteN.gexpn n (fun z : Prelude.vec => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (@HermiteModel.heval n h z i) "
        "(@HermiteModel.heval n h z l))) (Rdefinitions.RbaseSymbolsImpl.Rmult (HermiteN.gexpn "
        "n (fun z : Prelude.vec => @HermiteModel.heval n h z i)) (HermiteN.gexpn n (fun z : "
        "Prelude.vec => @HermiteModel.heval n h z l)))) (Prelude.kron i l)) : forall (n : "
        "nat) (_ : HermiteModel.HEncoder n), Prop Arguments HermiteN.gwhitened_n "
        "{n}%nat_scope h"
    ),
    "LejepaId.HermiteN.vset": (
        "HermiteN.vset = fun (z : Prelude.vec) (m : nat) (x : "
        "Rdefinitions.RbaseSymbolsImpl.R) (j : nat) => match PeanoNat.Nat.eq_dec j m return "
        "Rdefinitions.RbaseSymbolsImpl.R with | left _ => x | right _ => z j end : forall (_ "
        ": Prelude.vec) (_ : nat) (_ : Rdefinitions.RbaseSymbolsImpl.R), Prelude.vec "
        "Arguments HermiteN.vset z m%nat_scope x%R_scope _"
    ),
    "LejepaId.Mehler.ou": (
        "Mehler.ou = fun (rho s : Rdefinitions.RbaseSymbolsImpl.R) (z w : Prelude.vec) (j : "
        "nat) => Rdefinitions.RbaseSymbolsImpl.Rplus (Rdefinitions.RbaseSymbolsImpl.Rmult rho "
        "(z j)) (Rdefinitions.RbaseSymbolsImpl.Rmult s (w j)) : forall (_ : "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "Prelude.vec) (_ : Prelude.vec), Prelude.vec Arguments Mehler.ou (rho s)%R_scope z w "
        "_"
    ),
    "LejepaId.Mehler.ou_alignment": (
        "Mehler.ou_alignment = fun (n : nat) (h : HermiteModel.HEncoder n) (rho : "
        "Rdefinitions.RbaseSymbolsImpl.R) => HermiteN.gexpn n (fun z : Prelude.vec => "
        "HermiteN.gexpn n (fun w : Prelude.vec => Prelude.nsq n (Prelude.vsub "
        "(@HermiteModel.heval n h z) (@HermiteModel.heval n h (Mehler.ou rho (R_sqrt.sqrt "
        "(Rdefinitions.Rminus (Rdefinitions.IZR (BinNums.Zpos BinNums.xH)) (Rpow_def.pow rho "
        "(S (S O))))) z w))))) : forall (n : nat) (_ : HermiteModel.HEncoder n) (_ : "
        "Rdefinitions.RbaseSymbolsImpl.R), Rdefinitions.RbaseSymbolsImpl.R Arguments "
        "Mehler.ou_alignment {n}%nat_scope h rho%R_scope"
    ),
    "LejepaId.Planning.exp_cost": (
        "Planning.exp_cost = fun (S A : Type) (c : forall (_ : S) (_ : A), "
        "Rdefinitions.RbaseSymbolsImpl.R) (cT : forall _ : S, "
        "Rdefinitions.RbaseSymbolsImpl.R) => fix exp_cost (space : list S) (K : forall (_ : "
        "S) (_ : A) (_ : S), Rdefinitions.RbaseSymbolsImpl.R) (x : S) (acts : list A) {struct "
        "acts} : Rdefinitions.RbaseSymbolsImpl.R := match acts return "
        "Rdefinitions.RbaseSymbolsImpl.R with | nil => cT x | cons a rest => "
        "Rdefinitions.RbaseSymbolsImpl.Rplus (c x a) (Planning.lsum S space (fun x' : S => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (K x a x') (exp_cost space K x' rest))) end : "
        "forall (S A : Type) (_ : forall (_ : S) (_ : A), Rdefinitions.RbaseSymbolsImpl.R) (_ "
        ": forall _ : S, Rdefinitions.RbaseSymbolsImpl.R) (_ : list S) (_ : forall (_ : S) (_ "
        ": A) (_ : S), Rdefinitions.RbaseSymbolsImpl.R) (_ : S) (_ : list A), "
        "Rdefinitions.RbaseSymbolsImpl.R Arguments Planning.exp_cost (S A)%type_scope (c "
        "cT)%function_scope space%list_scope K%function_scope x acts%list_scope"
    ),
    "LejepaId.Planning.is_minimizer": (
        "Planning.is_minimizer = fun (S A : Type) (c : forall (_ : S) (_ : A), "
        "Rdefinitions.RbaseSymbolsImpl.R) (cT : forall _ : S, "
        "Rdefinitions.RbaseSymbolsImpl.R) (g : forall (_ : S) (_ : A), S) (x : S) (T : nat) "
        "(acts : list A) => and (@eq nat (@length A acts) T) (forall (acts' : list A) (_ : "
        "@eq nat (@length A acts') T), Rdefinitions.Rle (Planning.total_cost S A c cT g x "
        "acts) (Planning.total_cost S A c cT g x acts')) : forall (S A : Type) (_ : forall (_ "
        ": S) (_ : A), Rdefinitions.RbaseSymbolsImpl.R) (_ : forall _ : S, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : forall (_ : S) (_ : A), S) (_ : S) (_ : nat) "
        "(_ : list A), Prop Arguments Planning.is_minimizer (S A)%type_scope (c cT "
        "g)%function_scope x T%nat_scope acts%list_scope"
    ),
    "LejepaId.Planning.is_opt_value": (
        "Planning.is_opt_value = fun (S A : Type) (c : forall (_ : S) (_ : A), "
        "Rdefinitions.RbaseSymbolsImpl.R) (cT : forall _ : S, "
        "Rdefinitions.RbaseSymbolsImpl.R) (g : forall (_ : S) (_ : A), S) (x : S) (T : nat) "
        "(v : Rdefinitions.RbaseSymbolsImpl.R) => and (@ex (list A) (fun acts : list A => and "
        "(@eq nat (@length A acts) T) (@eq Rdefinitions.RbaseSymbolsImpl.R "
        "(Planning.total_cost S A c cT g x acts) v))) (forall (acts : list A) (_ : @eq nat "
        "(@length A acts) T), Rdefinitions.Rle v (Planning.total_cost S A c cT g x acts)) : "
        "forall (S A : Type) (_ : forall (_ : S) (_ : A), Rdefinitions.RbaseSymbolsImpl.R) (_ "
        ": forall _ : S, Rdefinitions.RbaseSymbolsImpl.R) (_ : forall (_ : S) (_ : A), S) (_ "
        ": S) (_ : nat) (_ : Rdefinitions.RbaseSymbolsImpl.R), Prop Arguments "
        "Planning.is_opt_value (S A)%type_scope (c cT g)%function_scope x T%nat_scope "
        "v%R_scope"
    ),
    "LejepaId.Planning.is_stoch_minimizer": (
        "Planning.is_stoch_minimizer = fun (S A : Type) (c : forall (_ : S) (_ : A), "
        "Rdefinitions.RbaseSymbolsImpl.R) (cT : forall _ : S, "
        "Rdefinitions.RbaseSymbolsImpl.R) (space : list S) (K : forall (_ : S) (_ : A) (_ : "
        "S), Rdefinitions.RbaseSymbolsImpl.R) (x : S) (T : nat) (acts : list A) => and (@eq "
        "nat (@length A acts) T) (forall (acts' : list A) (_ : @eq nat (@length A acts') T), "
        "Rdefinitions.Rle (Planning.exp_cost S A c cT space K x acts) (Planning.exp_cost S A "
        "c cT space K x acts')) : forall (S A : Type) (_ : forall (_ : S) (_ : A), "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : forall _ : S, Rdefinitions.RbaseSymbolsImpl.R) "
        "(_ : list S) (_ : forall (_ : S) (_ : A) (_ : S), Rdefinitions.RbaseSymbolsImpl.R) "
        "(_ : S) (_ : nat) (_ : list A), Prop Arguments Planning.is_stoch_minimizer (S "
        "A)%type_scope (c cT)%function_scope space%list_scope K%function_scope x T%nat_scope "
        "acts%list_scope"
    ),
    "LejepaId.Planning.is_stoch_value": (
        "Planning.is_stoch_value = fun (S A : Type) (c : forall (_ : S) (_ : A), "
        "Rdefinitions.RbaseSymbolsImpl.R) (cT : forall _ : S, "
        "Rdefinitions.RbaseSymbolsImpl.R) (space : list S) (K : forall (_ : S) (_ : A) (_ : "
        "S), Rdefinitions.RbaseSymbolsImpl.R) (x : S) (T : nat) (v : "
        "Rdefinitions.RbaseSymbolsImpl.R) => and (@ex (list A) (fun acts : list A => and (@eq "
        "nat (@length A acts) T) (@eq Rdefinitions.RbaseSymbolsImpl.R (Planning.exp_cost S A "
        "c cT space K x acts) v))) (forall (acts : list A) (_ : @eq nat (@length A acts) T), "
        "Rdefinitions.Rle v (Planning.exp_cost S A c cT space K x acts)) : forall (S A : "
        "Type) (_ : forall (_ : S) (_ : A), Rdefinitions.RbaseSymbolsImpl.R) (_ : forall _ : "
        "S, Rdefinitions.RbaseSymbolsImpl.R) (_ : list S) (_ : forall (_ : S) (_ : A) (_ : "
        "S), Rdefinitions.RbaseSymbolsImpl.R) (_ : S) (_ : nat) (_ : "
        "Rdefinitions.RbaseSymbolsImpl.R), Prop Arguments Planning.is_stoch_value (S "
        "A)%type_scope (c cT)%function_scope space%list_scope K%function_scope x T%nat_scope "
        "v%R_scope"
    ),
    "LejepaId.Planning.latent_states": (
        "Planning.latent_states = fun (S : Type) (states : list S) (phi : forall _ : S, S) => "
        "@List.map S S phi states : forall (S : Type) (_ : list S) (_ : forall _ : S, S), "
        "list S Arguments Planning.latent_states S%type_scope states%list_scope "
        "phi%function_scope"
    ),
    "LejepaId.Planning.lsum": (
        "Planning.lsum = fun S : Type => fix lsum (l : list S) (f : forall _ : S, "
        "Rdefinitions.RbaseSymbolsImpl.R) {struct l} : Rdefinitions.RbaseSymbolsImpl.R := "
        "match l return Rdefinitions.RbaseSymbolsImpl.R with | nil => Rdefinitions.IZR "
        "BinNums.Z0 | cons x rest => Rdefinitions.RbaseSymbolsImpl.Rplus (f x) (lsum rest f) "
        "end : forall (S : Type) (_ : list S) (_ : forall _ : S, "
        "Rdefinitions.RbaseSymbolsImpl.R), Rdefinitions.RbaseSymbolsImpl.R Arguments "
        "Planning.lsum S%type_scope l%list_scope f%function_scope"
    ),
    "LejepaId.Planning.markov_kernel": (
        "Planning.markov_kernel = fun (S A : Type) (space : list S) (K : forall (_ : S) (_ : "
        "A) (_ : S), Rdefinitions.RbaseSymbolsImpl.R) => forall (x : S) (a : A) (_ : @List.In "
        "S x space), and (forall x' : S, Rdefinitions.Rle (Rdefinitions.IZR BinNums.Z0) (K x "
        "a x')) (@eq Rdefinitions.RbaseSymbolsImpl.R (Planning.lsum S space (fun x' : S => K "
        "x a x')) (Rdefinitions.IZR (BinNums.Zpos BinNums.xH))) : forall (S A : Type) (_ : "
        "list S) (_ : forall (_ : S) (_ : A) (_ : S), Rdefinitions.RbaseSymbolsImpl.R), Prop "
        "Arguments Planning.markov_kernel (S A)%type_scope space%list_scope K%function_scope"
    ),
    "LejepaId.Planning.pushed": (
        "Planning.pushed = fun (S A : Type) (f : forall (_ : S) (_ : A), S) (phi psi : forall "
        "_ : S, S) (y : S) (a : A) => phi (f (psi y) a) : forall (S A : Type) (_ : forall (_ "
        ": S) (_ : A), S) (_ : forall _ : S, S) (_ : forall _ : S, S) (_ : S) (_ : A), S "
        "Arguments Planning.pushed (S A)%type_scope (f phi psi)%function_scope y a"
    ),
    "LejepaId.Planning.pushed_Q": (
        "Planning.pushed_Q = fun (n : nat) (Q : Prelude.mat) (A : Type) (f : forall (_ : "
        "Prelude.vec) (_ : A), Prelude.vec) (y : Prelude.vec) (a : A) => Prelude.mapply n Q "
        "(f (Prelude.mapply n (Planning.transpose Q) y) a) : forall (_ : nat) (_ : "
        "Prelude.mat) (A : Type) (_ : forall (_ : Prelude.vec) (_ : A), Prelude.vec) (_ : "
        "Prelude.vec) (_ : A), Prelude.vec Arguments Planning.pushed_Q n%nat_scope Q "
        "A%type_scope f%function_scope y a _"
    ),
    "LejepaId.Planning.pushed_kernel": (
        "Planning.pushed_kernel = fun (S A : Type) (P : forall (_ : S) (_ : A) (_ : S), "
        "Rdefinitions.RbaseSymbolsImpl.R) (psi : forall _ : S, S) (y : S) (a : A) (y' : S) => "
        "P (psi y) a (psi y') : forall (S A : Type) (_ : forall (_ : S) (_ : A) (_ : S), "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : forall _ : S, S) (_ : S) (_ : A) (_ : S), "
        "Rdefinitions.RbaseSymbolsImpl.R Arguments Planning.pushed_kernel (S A)%type_scope (P "
        "psi)%function_scope y a y'"
    ),
    "LejepaId.Planning.total_cost": (
        "Planning.total_cost = fun (S A : Type) (c : forall (_ : S) (_ : A), "
        "Rdefinitions.RbaseSymbolsImpl.R) (cT : forall _ : S, "
        "Rdefinitions.RbaseSymbolsImpl.R) => fix total_cost (g : forall (_ : S) (_ : A), S) "
        "(x : S) (acts : list A) {struct acts} : Rdefinitions.RbaseSymbolsImpl.R := match "
        "acts return Rdefinitions.RbaseSymbolsImpl.R with | nil => cT x | cons a rest => "
        "Rdefinitions.RbaseSymbolsImpl.Rplus (c x a) (total_cost g (g x a) rest) end : forall "
        "(S A : Type) (_ : forall (_ : S) (_ : A), Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "forall _ : S, Rdefinitions.RbaseSymbolsImpl.R) (_ : forall (_ : S) (_ : A), S) (_ : "
        "S) (_ : list A), Rdefinitions.RbaseSymbolsImpl.R Arguments Planning.total_cost (S "
        "A)%type_scope (c cT g)%function_scope x acts%list_scope"
    ),
    "LejepaId.Planning.transpose": (
        "Planning.transpose = fun (Q : Prelude.mat) (i j : nat) => Q j i : forall _ : "
        "Prelude.mat, Prelude.mat Arguments Planning.transpose Q _ _"
    ),
    "LejepaId.Prelude.dot": (
        "Prelude.dot = fun (n : nat) (x y : Prelude.vec) => Prelude.fsum n (fun i : nat => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (x i) (y i)) : forall (_ : nat) (_ : "
        "Prelude.vec) (_ : Prelude.vec), Rdefinitions.RbaseSymbolsImpl.R Arguments "
        "Prelude.dot n%nat_scope x y"
    ),
    "LejepaId.Prelude.fsum": (
        "Prelude.fsum = fix fsum (n : nat) (f : forall _ : nat, "
        "Rdefinitions.RbaseSymbolsImpl.R) {struct n} : Rdefinitions.RbaseSymbolsImpl.R := "
        "match n return Rdefinitions.RbaseSymbolsImpl.R with | O => Rdefinitions.IZR "
        "BinNums.Z0 | S m => Rdefinitions.RbaseSymbolsImpl.Rplus (fsum m f) (f m) end : "
        "forall (_ : nat) (_ : forall _ : nat, Rdefinitions.RbaseSymbolsImpl.R), "
        "Rdefinitions.RbaseSymbolsImpl.R Arguments Prelude.fsum n%nat_scope f%function_scope"
    ),
    "LejepaId.Prelude.kron": (
        "Prelude.kron = fun i j : nat => match PeanoNat.Nat.eq_dec i j return "
        "Rdefinitions.RbaseSymbolsImpl.R with | left _ => Rdefinitions.IZR (BinNums.Zpos "
        "BinNums.xH) | right _ => Rdefinitions.IZR BinNums.Z0 end : forall (_ : nat) (_ : "
        "nat), Rdefinitions.RbaseSymbolsImpl.R Arguments Prelude.kron (i j)%nat_scope"
    ),
    "LejepaId.Prelude.mapply": (
        "Prelude.mapply = fun (n : nat) (A : Prelude.mat) (x : Prelude.vec) (i : nat) => "
        "Prelude.fsum n (fun j : nat => Rdefinitions.RbaseSymbolsImpl.Rmult (A i j) (x j)) : "
        "forall (_ : nat) (_ : Prelude.mat) (_ : Prelude.vec), Prelude.vec Arguments "
        "Prelude.mapply n%nat_scope A x _"
    ),
    "LejepaId.Prelude.mat": (
        "Prelude.mat = forall (_ : nat) (_ : nat), Rdefinitions.RbaseSymbolsImpl.R : Set"
    ),
    "LejepaId.Prelude.nsq": (
        "Prelude.nsq = fun (n : nat) (x : Prelude.vec) => Prelude.dot n x x : forall (_ : "
        "nat) (_ : Prelude.vec), Rdefinitions.RbaseSymbolsImpl.R Arguments Prelude.nsq "
        "n%nat_scope x"
    ),
    "LejepaId.Prelude.orthogonal": (
        "Prelude.orthogonal = fun (n : nat) (Q : Prelude.mat) => and (forall (i k : nat) (_ : "
        "lt i n) (_ : lt k n), @eq Rdefinitions.RbaseSymbolsImpl.R (Prelude.fsum n (fun j : "
        "nat => Rdefinitions.RbaseSymbolsImpl.Rmult (Q j i) (Q j k))) (Prelude.kron i k)) "
        "(forall (i k : nat) (_ : lt i n) (_ : lt k n), @eq Rdefinitions.RbaseSymbolsImpl.R "
        "(Prelude.fsum n (fun j : nat => Rdefinitions.RbaseSymbolsImpl.Rmult (Q i j) (Q k "
        "j))) (Prelude.kron i k)) : forall (_ : nat) (_ : Prelude.mat), Prop Arguments "
        "Prelude.orthogonal n%nat_scope Q"
    ),
    "LejepaId.Prelude.vadd": (
        "Prelude.vadd = fun (x y : Prelude.vec) (i : nat) => "
        "Rdefinitions.RbaseSymbolsImpl.Rplus (x i) (y i) : forall (_ : Prelude.vec) (_ : "
        "Prelude.vec), Prelude.vec Arguments Prelude.vadd x y _"
    ),
    "LejepaId.Prelude.vec": ("Prelude.vec = forall _ : nat, Rdefinitions.RbaseSymbolsImpl.R : Set"),
    "LejepaId.Prelude.veq": (
        "Prelude.veq = fun (n : nat) (x y : Prelude.vec) => forall (i : nat) (_ : lt i n), "
        "@eq Rdefinitions.RbaseSymbolsImpl.R (x i) (y i) : forall (_ : nat) (_ : Prelude.vec) "
        "(_ : Prelude.vec), Prop Arguments Prelude.veq n%nat_scope x y"
    ),
    "LejepaId.Prelude.vscal": (
        "Prelude.vscal = fun (c : Rdefinitions.RbaseSymbolsImpl.R) (x : Prelude.vec) (i : "
        "nat) => Rdefinitions.RbaseSymbolsImpl.Rmult c (x i) : forall (_ : "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : Prelude.vec), Prelude.vec Arguments "
        "Prelude.vscal c%R_scope x _"
    ),
    "LejepaId.Prelude.vsub": (
        "Prelude.vsub = fun (x y : Prelude.vec) (i : nat) => Rdefinitions.Rminus (x i) (y i) "
        ": forall (_ : Prelude.vec) (_ : Prelude.vec), Prelude.vec Arguments Prelude.vsub x y "
        "_"
    ),
    "LejepaId.GaussianMoments.IsPoly": (
        "Inductive IsPoly : forall _ : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R, Prop := poly_const : forall c : "
        "Rdefinitions.RbaseSymbolsImpl.R, GaussianMoments.IsPoly (fun _ : "
        "Rdefinitions.RbaseSymbolsImpl.R => c) | poly_xmul : forall (f : forall _ : "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "GaussianMoments.IsPoly f), GaussianMoments.IsPoly (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => Rdefinitions.RbaseSymbolsImpl.Rmult x (f "
        "x)) | poly_plus : forall (f h : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : GaussianMoments.IsPoly f) (_ : "
        "GaussianMoments.IsPoly h), GaussianMoments.IsPoly (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => Rdefinitions.RbaseSymbolsImpl.Rplus (f x) "
        "(h x)) | poly_ext : forall (f h : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : GaussianMoments.IsPoly f) (_ : forall x "
        ": Rdefinitions.RbaseSymbolsImpl.R, @eq Rdefinitions.RbaseSymbolsImpl.R (f x) "
        "(h x)), GaussianMoments.IsPoly h. Arguments GaussianMoments.IsPoly "
        "_%function_scope Arguments GaussianMoments.poly_const c%R_scope Arguments "
        "GaussianMoments.poly_xmul f%function_scope _ Arguments "
        "GaussianMoments.poly_plus (f h)%function_scope _ _ Arguments "
        "GaussianMoments.poly_ext (f h)%function_scope _ _%function_scope"
    ),
    "LejepaId.GaussianMoments.poly_const": (
        "Inductive IsPoly : forall _ : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R, Prop := poly_const : forall c : "
        "Rdefinitions.RbaseSymbolsImpl.R, GaussianMoments.IsPoly (fun _ : "
        "Rdefinitions.RbaseSymbolsImpl.R => c) | poly_xmul : forall (f : forall _ : "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "GaussianMoments.IsPoly f), GaussianMoments.IsPoly (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => Rdefinitions.RbaseSymbolsImpl.Rmult x (f "
        "x)) | poly_plus : forall (f h : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : GaussianMoments.IsPoly f) (_ : "
        "GaussianMoments.IsPoly h), GaussianMoments.IsPoly (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => Rdefinitions.RbaseSymbolsImpl.Rplus (f x) "
        "(h x)) | poly_ext : forall (f h : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : GaussianMoments.IsPoly f) (_ : forall x "
        ": Rdefinitions.RbaseSymbolsImpl.R, @eq Rdefinitions.RbaseSymbolsImpl.R (f x) "
        "(h x)), GaussianMoments.IsPoly h. Arguments GaussianMoments.IsPoly "
        "_%function_scope Arguments GaussianMoments.poly_const c%R_scope Arguments "
        "GaussianMoments.poly_xmul f%function_scope _ Arguments "
        "GaussianMoments.poly_plus (f h)%function_scope _ _ Arguments "
        "GaussianMoments.poly_ext (f h)%function_scope _ _%function_scope"
    ),
    "LejepaId.GaussianMoments.poly_ext": (
        "Inductive IsPoly : forall _ : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R, Prop := poly_const : forall c : "
        "Rdefinitions.RbaseSymbolsImpl.R, GaussianMoments.IsPoly (fun _ : "
        "Rdefinitions.RbaseSymbolsImpl.R => c) | poly_xmul : forall (f : forall _ : "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "GaussianMoments.IsPoly f), GaussianMoments.IsPoly (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => Rdefinitions.RbaseSymbolsImpl.Rmult x (f "
        "x)) | poly_plus : forall (f h : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : GaussianMoments.IsPoly f) (_ : "
        "GaussianMoments.IsPoly h), GaussianMoments.IsPoly (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => Rdefinitions.RbaseSymbolsImpl.Rplus (f x) "
        "(h x)) | poly_ext : forall (f h : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : GaussianMoments.IsPoly f) (_ : forall x "
        ": Rdefinitions.RbaseSymbolsImpl.R, @eq Rdefinitions.RbaseSymbolsImpl.R (f x) "
        "(h x)), GaussianMoments.IsPoly h. Arguments GaussianMoments.IsPoly "
        "_%function_scope Arguments GaussianMoments.poly_const c%R_scope Arguments "
        "GaussianMoments.poly_xmul f%function_scope _ Arguments "
        "GaussianMoments.poly_plus (f h)%function_scope _ _ Arguments "
        "GaussianMoments.poly_ext (f h)%function_scope _ _%function_scope"
    ),
    "LejepaId.GaussianMoments.poly_plus": (
        "Inductive IsPoly : forall _ : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R, Prop := poly_const : forall c : "
        "Rdefinitions.RbaseSymbolsImpl.R, GaussianMoments.IsPoly (fun _ : "
        "Rdefinitions.RbaseSymbolsImpl.R => c) | poly_xmul : forall (f : forall _ : "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "GaussianMoments.IsPoly f), GaussianMoments.IsPoly (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => Rdefinitions.RbaseSymbolsImpl.Rmult x (f "
        "x)) | poly_plus : forall (f h : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : GaussianMoments.IsPoly f) (_ : "
        "GaussianMoments.IsPoly h), GaussianMoments.IsPoly (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => Rdefinitions.RbaseSymbolsImpl.Rplus (f x) "
        "(h x)) | poly_ext : forall (f h : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : GaussianMoments.IsPoly f) (_ : forall x "
        ": Rdefinitions.RbaseSymbolsImpl.R, @eq Rdefinitions.RbaseSymbolsImpl.R (f x) "
        "(h x)), GaussianMoments.IsPoly h. Arguments GaussianMoments.IsPoly "
        "_%function_scope Arguments GaussianMoments.poly_const c%R_scope Arguments "
        "GaussianMoments.poly_xmul f%function_scope _ Arguments "
        "GaussianMoments.poly_plus (f h)%function_scope _ _ Arguments "
        "GaussianMoments.poly_ext (f h)%function_scope _ _%function_scope"
    ),
    "LejepaId.GaussianMoments.poly_xmul": (
        "Inductive IsPoly : forall _ : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R, Prop := poly_const : forall c : "
        "Rdefinitions.RbaseSymbolsImpl.R, GaussianMoments.IsPoly (fun _ : "
        "Rdefinitions.RbaseSymbolsImpl.R => c) | poly_xmul : forall (f : forall _ : "
        "Rdefinitions.RbaseSymbolsImpl.R, Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "GaussianMoments.IsPoly f), GaussianMoments.IsPoly (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => Rdefinitions.RbaseSymbolsImpl.Rmult x (f "
        "x)) | poly_plus : forall (f h : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : GaussianMoments.IsPoly f) (_ : "
        "GaussianMoments.IsPoly h), GaussianMoments.IsPoly (fun x : "
        "Rdefinitions.RbaseSymbolsImpl.R => Rdefinitions.RbaseSymbolsImpl.Rplus (f x) "
        "(h x)) | poly_ext : forall (f h : forall _ : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : GaussianMoments.IsPoly f) (_ : forall x "
        ": Rdefinitions.RbaseSymbolsImpl.R, @eq Rdefinitions.RbaseSymbolsImpl.R (f x) "
        "(h x)), GaussianMoments.IsPoly h. Arguments GaussianMoments.IsPoly "
        "_%function_scope Arguments GaussianMoments.poly_const c%R_scope Arguments "
        "GaussianMoments.poly_xmul f%function_scope _ Arguments "
        "GaussianMoments.poly_plus (f h)%function_scope _ _ Arguments "
        "GaussianMoments.poly_ext (f h)%function_scope _ _%function_scope"
    ),
    "LejepaId.HermiteN.sumprod": (
        "HermiteN.sumprod = fun (n N : nat) (c : forall _ : nat, "
        "Rdefinitions.RbaseSymbolsImpl.R) (p : forall (_ : nat) (_ : nat) (_ : "
        "Rdefinitions.RbaseSymbolsImpl.R), Rdefinitions.RbaseSymbolsImpl.R) (z : "
        "Prelude.vec) => Prelude.fsum N (fun k : nat => "
        "Rdefinitions.RbaseSymbolsImpl.Rmult (c k) (Dirichlet.fprod n (fun j : nat => "
        "p k j (z j)))) : forall (_ : nat) (_ : nat) (_ : forall _ : nat, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : forall (_ : nat) (_ : nat) (_ : "
        "Rdefinitions.RbaseSymbolsImpl.R), Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "Prelude.vec), Rdefinitions.RbaseSymbolsImpl.R Arguments HermiteN.sumprod (n "
        "N)%nat_scope (c p)%function_scope z"
    ),
    "LejepaId.IntegrationOrder.is_perm": (
        "IntegrationOrder.is_perm = fun (n : nat) (sigma tau : forall _ : nat, nat) => "
        "forall (j : nat) (_ : lt j n), and (lt (sigma j) n) (and (lt (tau j) n) (and "
        "(@eq nat (tau (sigma j)) j) (@eq nat (sigma (tau j)) j))) : forall (_ : nat) "
        "(_ : forall _ : nat, nat) (_ : forall _ : nat, nat), Prop Arguments "
        "IntegrationOrder.is_perm n%nat_scope (sigma tau)%function_scope"
    ),
    "LejepaId.IntegrationOrder.vperm": (
        "IntegrationOrder.vperm = fun (sigma : forall _ : nat, nat) (z : Prelude.vec) "
        "(j : nat) => z (sigma j) : forall (_ : forall _ : nat, nat) (_ : "
        "Prelude.vec), Prelude.vec Arguments IntegrationOrder.vperm "
        "sigma%function_scope z _"
    ),
    "LejepaId.GaussianExpectation.gauss_jacobian_density": (
        "GaussianExpectation.gauss_jacobian_density = fun (n : nat) (h : forall _ : "
        "Prelude.vec, Prelude.vec) (J : forall _ : Prelude.vec, Prelude.mat) => forall z : "
        "Prelude.vec, @eq Rdefinitions.RbaseSymbolsImpl.R (Dirichlet.det n (Dirichlet.gram n "
        "(J z))) (Rtrigo_def.exp (Rdefinitions.Rminus (Prelude.nsq n (h z)) (Prelude.nsq n "
        "z))) : forall (_ : nat) (_ : forall _ : Prelude.vec, Prelude.vec) (_ : forall _ : "
        "Prelude.vec, Prelude.mat), Prop Arguments GaussianExpectation.gauss_jacobian_density"
        " n%nat_scope (h J)%function_scope"
    ),
    "LejepaId.GaussFubini.poly_growth2": (
        "GaussFubini.poly_growth2 = fun f : forall (_ : Rdefinitions.RbaseSymbolsImpl.R) "
        "(_ : Rdefinitions.RbaseSymbolsImpl.R), Rdefinitions.RbaseSymbolsImpl.R => @ex "
        "Rdefinitions.RbaseSymbolsImpl.R (fun C : Rdefinitions.RbaseSymbolsImpl.R => @ex "
        "nat (fun k : nat => forall x y : Rdefinitions.RbaseSymbolsImpl.R, "
        "Rdefinitions.Rle (Rbasic_fun.Rabs (f x y)) (Rdefinitions.RbaseSymbolsImpl.Rmult "
        "C (Rpow_def.pow (Rdefinitions.RbaseSymbolsImpl.Rplus "
        "(Rdefinitions.RbaseSymbolsImpl.Rplus (Rdefinitions.IZR (BinNums.Zpos "
        "BinNums.xH)) (Rpow_def.pow x (S (S O)))) (Rpow_def.pow y (S (S O)))) k)))) : "
        "forall _ : forall (_ : Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "Rdefinitions.RbaseSymbolsImpl.R), Rdefinitions.RbaseSymbolsImpl.R, Prop "
        "Arguments GaussFubini.poly_growth2 f%function_scope"
    ),
    "LejepaId.GaussFubiniN.box": (
        "GaussFubiniN.box = fun (n : nat) (r : Rdefinitions.RbaseSymbolsImpl.R) (z : "
        "Prelude.vec) => forall (j : nat) (_ : lt j n), Rdefinitions.Rle (Rbasic_fun.Rabs "
        "(z j)) r : forall (_ : nat) (_ : Rdefinitions.RbaseSymbolsImpl.R) (_ : "
        "Prelude.vec), Prop Arguments GaussFubiniN.box n%nat_scope r%R_scope z"
    ),
    "LejepaId.GaussFubiniN.fclass": (
        "GaussFubiniN.fclass = fun (n : nat) (F : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R) => and (GaussianExpectation.first_coords n F) "
        "(and (GaussFubiniN.ucont n F) (GaussFubiniN.pgrowth n F)) : forall (_ : nat) (_ "
        ": forall _ : Prelude.vec, Rdefinitions.RbaseSymbolsImpl.R), Prop Arguments "
        "GaussFubiniN.fclass n%nat_scope F%function_scope"
    ),
    "LejepaId.GaussFubiniN.near": (
        "GaussFubiniN.near = fun (n : nat) (d : Rdefinitions.RbaseSymbolsImpl.R) (w z : "
        "Prelude.vec) => forall (j : nat) (_ : lt j n), Rdefinitions.RbaseSymbolsImpl.Rlt "
        "(Rbasic_fun.Rabs (Rdefinitions.Rminus (w j) (z j))) d : forall (_ : nat) (_ : "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : Prelude.vec) (_ : Prelude.vec), Prop "
        "Arguments GaussFubiniN.near n%nat_scope d%R_scope w z"
    ),
    "LejepaId.GaussFubiniN.pgrowth": (
        "GaussFubiniN.pgrowth = fun (n : nat) (F : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R) => @ex Rdefinitions.RbaseSymbolsImpl.R (fun C : "
        "Rdefinitions.RbaseSymbolsImpl.R => @ex nat (fun k : nat => forall z : "
        "Prelude.vec, Rdefinitions.Rle (Rbasic_fun.Rabs (F z)) "
        "(Rdefinitions.RbaseSymbolsImpl.Rmult C (Rpow_def.pow "
        "(Rdefinitions.RbaseSymbolsImpl.Rplus (Rdefinitions.IZR (BinNums.Zpos "
        "BinNums.xH)) (Prelude.nsq n z)) k)))) : forall (_ : nat) (_ : forall _ : "
        "Prelude.vec, Rdefinitions.RbaseSymbolsImpl.R), Prop Arguments "
        "GaussFubiniN.pgrowth n%nat_scope F%function_scope"
    ),
    "LejepaId.GaussFubiniN.ucont": (
        "GaussFubiniN.ucont = fun (n : nat) (F : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R) => forall (r : Rdefinitions.RbaseSymbolsImpl.R) "
        "(eps : RIneq.posreal), @ex RIneq.posreal (fun delta : RIneq.posreal => forall (w "
        "z : Prelude.vec) (_ : GaussFubiniN.box n r w) (_ : GaussFubiniN.box n r z) (_ : "
        "GaussFubiniN.near n (RIneq.pos delta) w z), Rdefinitions.RbaseSymbolsImpl.Rlt "
        "(Rbasic_fun.Rabs (Rdefinitions.Rminus (F w) (F z))) (RIneq.pos eps)) : forall (_ "
        ": nat) (_ : forall _ : Prelude.vec, Rdefinitions.RbaseSymbolsImpl.R), Prop "
        "Arguments GaussFubiniN.ucont n%nat_scope F%function_scope"
    ),
    "LejepaId.GaussianExpectation.first_coords": (
        "GaussianExpectation.first_coords = fun (n : nat) (F : forall _ : Prelude.vec, "
        "Rdefinitions.RbaseSymbolsImpl.R) => forall (z z' : forall _ : nat, "
        "Rdefinitions.RbaseSymbolsImpl.R) (_ : forall (j : nat) (_ : lt j n), @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (z j) (z' j)), @eq "
        "Rdefinitions.RbaseSymbolsImpl.R (F z) (F z') : forall (_ : nat) (_ : forall _ : "
        "Prelude.vec, Rdefinitions.RbaseSymbolsImpl.R), Prop Arguments "
        "GaussianExpectation.first_coords n%nat_scope F%function_scope"
    ),
}


def mismatches(statements_text: str, only: set[str] | None = None) -> list[str]:
    """How a statements file departs from the locks (``only``: those theorems).

    Compares, with whitespace runs collapsed, each locked theorem's printed
    statement, the list of definitions it depends on, and each of their texts.
    """
    from lejepa_id.proofs import statements

    blocks, defs = statements.parse(statements_text)
    out = []
    for name, locked in THEOREMS.items():
        if only is not None and name not in only:
            continue
        block = blocks.get(("theorem", name))
        if block is None:
            out.append(f"{name}: no printed statement")
            continue
        if " ".join(block.text.split()) != locked:
            out.append(f"{name}: printed statement differs from the locked text")
        if tuple(block.uses) != USES[name]:
            added = sorted(set(block.uses) - set(USES[name]))
            dropped = sorted(set(USES[name]) - set(block.uses))
            out.append(f"{name}: depends on other definitions (+{added}, -{dropped})")
        for d in block.uses:
            if d in DEFINITIONS and " ".join(defs.get(d, "").split()) != DEFINITIONS[d]:
                out.append(f"{name}: definition {d} differs from the locked text")
    return out
