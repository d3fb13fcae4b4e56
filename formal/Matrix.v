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

(** ** Frobenius norm, Cauchy-Schwarz, the triangle inequality.  The polar
    factor is proved in [PolarFactor.v]. *)

(** [|X|_F] of an [n x n] matrix. *)
Definition frob (n : nat) (X : mat) : R := sqrt (fsum n (fun i => fsum n (fun j => X i j ^ 2))).
Definition mat_sub (X Y : mat) : mat := fun i j => X i j - Y i j.
(** [M M^T - I]. *)
Definition gram_defect (n : nat) (M : mat) : mat := fun i l => fsum n (fun j => M i j * M l j) - kron i l.

Lemma frob_nonneg : forall n X, 0 <= frob n X.
Proof. intros. apply sqrt_pos. Qed.

Lemma frob_ext : forall n X Y, (forall i j, (i < n)%nat -> (j < n)%nat -> X i j = Y i j) ->
  frob n X = frob n Y.
Proof.
  intros n X Y H. unfold frob. f_equal. apply fsum_ext. intros i Hi. apply fsum_ext. intros j Hj.
  rewrite H by assumption. reflexivity.
Qed.

Lemma frob_sq : forall n X, frob n X ^ 2 = fsum n (fun i => fsum n (fun j => X i j ^ 2)).
Proof.
  intros n X. unfold frob. apply pow2_sqrt. apply fsum_nonneg. intros i _.
  apply fsum_nonneg. intros j _. apply pow2_ge_0.
Qed.

(** A quadratic [a + 2 b t + c t^2], [c >= 0], nonnegative for every [t] has [b^2 <= a c]. *)
Lemma discriminant : forall a b c, 0 <= c -> (forall t, 0 <= a + 2 * b * t + c * t ^ 2) -> b ^ 2 <= a * c.
Proof.
  intros a b c Hc0 H. pose proof (H 0) as H0.
  destruct (Req_dec c 0) as [Hc|Hc].
  - destruct (Req_dec b 0) as [Hb|Hb]; [subst; nra|].
    pose proof (H (- (a + 1) / (2 * b))) as Ht. rewrite Hc in Ht.
    replace (a + 2 * b * (- (a + 1) / (2 * b)) + 0 * (- (a + 1) / (2 * b)) ^ 2) with (-1) in Ht
      by (field; exact Hb). lra.
  - assert (Hcp : 0 < c) by lra.
    pose proof (H (- b / c)) as Ht.
    replace (a + 2 * b * (- b / c) + c * (- b / c) ^ 2) with ((a * c - b ^ 2) / c) in Ht by (field; lra).
    assert (0 <= a * c - b ^ 2); [|lra].
    apply (Rmult_le_reg_r (/ c)); [apply Rinv_0_lt_compat, Hcp|]. rewrite Rmult_0_l. exact Ht.
Qed.

(** Cauchy-Schwarz for finite sums and for double finite sums. *)
Lemma fsum_cauchy_schwarz : forall N (a b : nat -> R),
  fsum N (fun k => a k * b k) ^ 2 <= fsum N (fun k => a k ^ 2) * fsum N (fun k => b k ^ 2).
Proof.
  intros N a b. apply discriminant; [apply fsum_nonneg; intros; apply pow2_ge_0|]. intros t.
  replace (fsum N (fun k => a k ^ 2) + 2 * fsum N (fun k => a k * b k) * t + fsum N (fun k => b k ^ 2) * t ^ 2)
    with (fsum N (fun k => (a k + t * b k) ^ 2)).
  - apply fsum_nonneg. intros; apply pow2_ge_0.
  - rewrite (fsum_ext N _ (fun k => (a k ^ 2 + (2 * t) * (a k * b k)) + t ^ 2 * b k ^ 2)) by (intros; ring).
    rewrite !fsum_plus, !fsum_scal. ring.
Qed.

Lemma fsum2_cauchy_schwarz : forall n (X Y : mat),
  fsum n (fun i => fsum n (fun j => X i j * Y i j)) ^ 2 <=
  fsum n (fun i => fsum n (fun j => X i j ^ 2)) * fsum n (fun i => fsum n (fun j => Y i j ^ 2)).
Proof.
  intros n X Y. apply discriminant; [apply fsum_nonneg; intros i _; apply fsum_nonneg; intros; apply pow2_ge_0|].
  intros t.
  replace (fsum n (fun i => fsum n (fun j => X i j ^ 2)) + 2 * fsum n (fun i => fsum n (fun j => X i j * Y i j)) * t +
           fsum n (fun i => fsum n (fun j => Y i j ^ 2)) * t ^ 2)
    with (fsum n (fun i => fsum n (fun j => (X i j + t * Y i j) ^ 2))).
  - apply fsum_nonneg. intros i _. apply fsum_nonneg. intros; apply pow2_ge_0.
  - rewrite (fsum_ext n _ (fun i => (fsum n (fun j => X i j ^ 2) + (2 * t) * fsum n (fun j => X i j * Y i j))
                                    + t ^ 2 * fsum n (fun j => Y i j ^ 2))).
    + rewrite !fsum_plus, !fsum_scal. ring.
    + intros i _. rewrite <- !fsum_scal, <- !fsum_plus. apply fsum_ext. intros; ring.
Qed.

Lemma sqrt_le_of_sq : forall x y, 0 <= y -> x <= y ^ 2 -> sqrt x <= y.
Proof.
  intros x y Hy Hx. rewrite <- (sqrt_pow2 y Hy). apply sqrt_le_1_alt. exact Hx.
Qed.

(** The triangle inequality for the Frobenius norm, in the form [|X - Y|_F <= |X|_F + |Y|_F]. *)
Lemma frob_sub_le : forall n X Y, frob n (mat_sub X Y) <= frob n X + frob n Y.
Proof.
  intros n X Y. unfold frob at 1. apply sqrt_le_of_sq; [pose proof (frob_nonneg n X); pose proof (frob_nonneg n Y); lra|].
  set (B := fsum n (fun i => fsum n (fun j => X i j * Y i j))).
  assert (HB : B ^ 2 <= frob n X ^ 2 * frob n Y ^ 2) by (rewrite !frob_sq; apply fsum2_cauchy_schwarz).
  assert (HB' : - B <= frob n X * frob n Y).
  { assert (Hp : 0 <= frob n X * frob n Y) by (apply Rmult_le_pos; apply frob_nonneg).
    rewrite <- Rpow_mult_distr in HB. set (p := frob n X * frob n Y) in *.
    destruct (Rle_or_lt (- B) p) as [|Hlt]; [assumption|].
    assert (p ^ 2 < B ^ 2) by (simpl; nra). lra. }
  replace (fsum n (fun i => fsum n (fun j => mat_sub X Y i j ^ 2)))
    with (frob n X ^ 2 - 2 * B + frob n Y ^ 2); [nra|].
  rewrite !frob_sq. unfold B. rewrite <- (fsum_scal n 2), <- fsum_minus, <- fsum_plus.
  apply fsum_ext. intros i _. rewrite <- (fsum_scal n 2), <- fsum_minus, <- fsum_plus.
  apply fsum_ext. intros j _. unfold mat_sub. ring.
Qed.
