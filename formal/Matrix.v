(** * Square matrices: orthonormal rows give orthonormal columns.

    For a square [A] with [A A^T = I], the matrix [P = A^T A] is symmetric and
    idempotent ([P P = A^T (A A^T) A = P]) with trace [tr (A A^T) = n], so
    [|I - P|_F^2 = n - 2 tr P + tr (P P) = n - tr P = 0] and [A^T A = I]: the
    rank argument of the textbook proof is replaced by this trace identity.
    No axiom. *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz.
From LejepaId Require Import Prelude.
Open Scope R_scope.

Lemma fsum_mul_fsum : forall N M f g,
  fsum N f * fsum M g = fsum N (fun k => fsum M (fun k' => f k * g k')).
Proof.
  intros N M f g. rewrite Rmult_comm, <- fsum_scal. apply fsum_ext. intros k _.
  rewrite Rmult_comm, <- fsum_scal. reflexivity.
Qed.

(** A sum of nonnegative terms that vanishes has only zero terms. *)
Lemma fsum_nonneg_zero : forall N (f : nat -> R), (forall k, (k < N)%nat -> 0 <= f k) -> fsum N f = 0 ->
  forall k, (k < N)%nat -> f k = 0.
Proof.
  intros N f Hf H k Hk. symmetry. apply (fsum_le_eq N (fun _ => 0) f Hf); [|exact Hk].
  rewrite fsum_const, H. ring.
Qed.

(** [A A^T = I]: the rows of [A] are orthonormal. *)
Definition rows_orthonormal (n : nat) (A : mat) : Prop :=
  forall i k, (i < n)%nat -> (k < n)%nat -> fsum n (fun j => A i j * A k j) = kron i k.

Section Gram.
  Variables (n : nat) (A : mat).
  Hypothesis HA : rows_orthonormal n A.

  (** [P = A^T A]. *)
  Let P (i k : nat) : R := fsum n (fun j => A j i * A j k).

  Let P_sym : forall i k, P i k = P k i.
  Proof. intros i k. unfold P. apply fsum_ext. intros; ring. Qed.

  Let P_trace : fsum n (fun i => P i i) = INR n.
  Proof.
    unfold P. rewrite fsum_swap. rewrite (fsum_ext n _ (fun _ => 1)); [rewrite fsum_const; ring|].
    intros j Hj. rewrite (HA j j Hj Hj). unfold kron. destruct (Nat.eq_dec j j); [reflexivity | congruence].
  Qed.

  Let P_idem : forall i l, fsum n (fun k => P i k * P k l) = P i l.
  Proof.
    intros i l. unfold P.
    rewrite (fsum_ext n _ (fun k => fsum n (fun j => fsum n (fun m => A j i * A j k * (A m k * A m l)))))
      by (intros k _; apply fsum_mul_fsum).
    rewrite fsum_swap.
    apply fsum_ext. intros j Hj. rewrite fsum_swap.
    rewrite (fsum_ext n _ (fun m => kron j m * (A j i * A m l))); [apply fsum_kron, Hj|].
    intros m Hm. rewrite <- (HA j m Hj Hm), Rmult_comm, <- fsum_scal. apply fsum_ext. intros; ring.
  Qed.

  Let row_defect : forall i, (i < n)%nat ->
    fsum n (fun k => (kron i k - P i k) ^ 2) = 1 - P i i.
  Proof.
    intros i Hi.
    rewrite (fsum_ext n _ (fun k => kron i k * (1 - 2 * P i k) + P i k * P k i)).
    - rewrite fsum_plus, (fsum_kron n i (fun k => 1 - 2 * P i k) Hi), P_idem. ring.
    - intros k _. rewrite (P_sym k i). unfold kron. destruct (Nat.eq_dec i k); ring.
  Qed.

  Lemma rows_orthonormal_cols :
    forall i k, (i < n)%nat -> (k < n)%nat -> fsum n (fun j => A j i * A j k) = kron i k.
  Proof.
    assert (Hz : fsum n (fun i => fsum n (fun k => (kron i k - P i k) ^ 2)) = 0).
    { rewrite (fsum_ext n _ (fun i => 1 - P i i)) by exact row_defect.
      rewrite fsum_minus, fsum_const, P_trace. ring. }
    assert (Hnn : forall i, (i < n)%nat -> 0 <= fsum n (fun k => (kron i k - P i k) ^ 2)).
    { intros i _. apply fsum_nonneg. intros k _. apply pow2_ge_0. }
    intros i k Hi Hk.
    pose proof (fsum_nonneg_zero n _ Hnn Hz i Hi) as Hrow.
    pose proof (fsum_nonneg_zero n _ (fun k _ => pow2_ge_0 (kron i k - P i k)) Hrow k Hk) as Hik.
    change (P i k = kron i k). nra.
  Qed.
End Gram.

(** A square matrix with [A A^T = I] is orthogonal ([A^T A = I] as well). *)
Theorem rows_orthonormal_orthogonal : forall n A, rows_orthonormal n A -> orthogonal n A.
Proof.
  intros n A HA. split; [apply (rows_orthonormal_cols n A HA) | exact HA].
Qed.
