(** * The polar factor: every real square matrix has an orthogonal [Q] with
    [|M - Q|_F <= |M M^T - I|_F].

    The orthogonal [n x n] matrices, read as vectors of [R^(n n)] (entry
    [(i, j)] at coordinate [i n + j]), form a closed subset of the cube
    [[-1, 1]^(n n)], and [Q -> <Q, M>] is continuous, so it has a maximizer
    ([Compact.compact_max]); a maximizer is a polar factor
    ([Polar.max_polar]).  No axiom beyond those of Coq's classical reals. *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz.
From LejepaId Require Import Prelude Matrix Compact Polar.
Open Scope R_scope.

(** The matrix stored in a vector of [R^(n n)], and the vector of a matrix. *)
Definition unvec (n : nat) (v : vec) : mat := fun i j => v (i * n + j)%nat.
Definition tovec (n : nat) (A : mat) : vec := fun c => A (c / n)%nat (c mod n)%nat.

Lemma index_lt : forall n i j, (i < n)%nat -> (j < n)%nat -> (i * n + j < n * n)%nat.
Proof. intros n i j Hi Hj. nia. Qed.

Lemma unvec_tovec : forall n A i j, (i < n)%nat -> (j < n)%nat -> unvec n (tovec n A) i j = A i j.
Proof.
  intros n A i j Hi Hj. unfold unvec, tovec.
  rewrite Nat.div_add_l, Nat.div_small, Nat.add_0_r by lia.
  rewrite Nat.add_comm, Nat.mod_add, Nat.mod_small by lia. reflexivity.
Qed.

(** Every coordinate [c < n n] is the entry [(c / n, c mod n)]. *)
Lemma coord_entry : forall n c, (c < n * n)%nat ->
  (c / n < n)%nat /\ (c mod n < n)%nat /\ (c / n * n + c mod n)%nat = c.
Proof.
  intros n c Hc. assert (Hn : n <> 0%nat) by (intros ->; simpl in Hc; lia).
  split; [apply Nat.div_lt_upper_bound; lia|]. split; [apply Nat.mod_upper_bound, Hn|].
  rewrite Nat.mul_comm. symmetry. apply Nat.div_mod, Hn.
Qed.

Lemma orthogonal_ext : forall n A B, (forall i j, (i < n)%nat -> (j < n)%nat -> A i j = B i j) ->
  orthogonal n A -> orthogonal n B.
Proof.
  intros n A B H [Hc Hr]. split; intros i k Hi Hk.
  - rewrite <- (Hc i k Hi Hk). apply fsum_ext. intros j Hj. rewrite !H by assumption. reflexivity.
  - rewrite <- (Hr i k Hi Hk). apply fsum_ext. intros j Hj. rewrite !H by assumption. reflexivity.
Qed.

Lemma mdot_ext : forall n A B M, (forall i j, (i < n)%nat -> (j < n)%nat -> A i j = B i j) ->
  mdot n A M = mdot n B M.
Proof.
  intros n A B M H. apply fsum_ext. intros i Hi. apply fsum_ext. intros j Hj. rewrite H by assumption. reflexivity.
Qed.

Lemma term_le_fsum : forall n (f : nat -> R) j, (forall k, (k < n)%nat -> 0 <= f k) -> (j < n)%nat -> f j <= fsum n f.
Proof.
  induction n as [|n IH]; intros f j Hf Hj; [lia|]. simpl.
  assert (0 <= fsum n f) by (apply fsum_nonneg; intros; apply Hf; lia).
  destruct (Nat.eq_dec j n) as [->|Hne]; [lra|].
  pose proof (IH f j (fun k Hk => Hf k ltac:(lia)) ltac:(lia)). pose proof (Hf n ltac:(lia)). lra.
Qed.

(** The entries of an orthogonal matrix lie in [[-1, 1]]. *)
Lemma orthogonal_entry : forall n A i j, orthogonal n A -> (i < n)%nat -> (j < n)%nat -> -1 <= A i j <= 1.
Proof.
  intros n A i j [_ Hr] Hi Hj. pose proof (Hr i i Hi Hi) as H. unfold kron in H.
  destruct (Nat.eq_dec i i) as [_|]; [|congruence].
  pose proof (term_le_fsum n (fun k => A i k * A i k) j (fun k _ => Rle_0_sqr (A i k)) Hj). simpl in *.
  split; nra.
Qed.

Lemma orthogonal_id : forall n, orthogonal n kron.
Proof.
  intros n. split; intros i k Hi Hk.
  - rewrite (fsum_ext n _ (fun j => kron i j * kron j k)) by (intros j _; rewrite (kron_sym j i); reflexivity).
    apply (fsum_kron n i (fun j => kron j k) Hi).
  - rewrite (fsum_kron n i (fun j => kron k j) Hi). apply kron_sym.
Qed.

(** A product of entries moved by at most [d <= 1] from entries in [[-1, 1]] moves by at most [3 d]. *)
Lemma prod_close : forall a b a' b' d, 0 < d -> d <= 1 -> Rabs (a - a') <= d -> Rabs (b - b') <= d ->
  -1 <= a' <= 1 -> -1 <= b' <= 1 -> Rabs (a * b - a' * b') <= 3 * d.
Proof.
  intros a b a' b' d Hd Hd1 Ha Hb Ha' Hb'. apply Rabs_le_between in Ha, Hb. apply Rabs_le_between.
  set (u := a - a') in *. set (v := b - b') in *.
  replace (a * b - a' * b') with (u * v + u * b' + a' * v) by (unfold u, v; ring).
  split; nra.
Qed.

(** A number bounded by [C d] for every [d] in [(0, 1]] is zero. *)
Lemma small_zero : forall e C, (forall d, 0 < d -> d <= 1 -> Rabs e <= C * d) -> e = 0.
Proof.
  intros e C H. destruct (Req_dec e 0) as [|Hne]; [assumption|exfalso].
  pose proof (Rabs_pos_lt e Hne) as Ha. pose proof (H 1 ltac:(lra) ltac:(lra)) as H1.
  assert (HC : 0 < C) by lra.
  pose proof (H (Rabs e / (2 * C))) as H2.
  assert (Hd : 0 < Rabs e / (2 * C)) by (apply Rdiv_lt_0_compat; lra).
  assert (Hd1 : Rabs e / (2 * C) <= 1) by (apply Rmult_le_reg_r with (2 * C); [lra|]; field_simplify; lra).
  specialize (H2 Hd Hd1). replace (C * (Rabs e / (2 * C))) with (Rabs e / 2) in H2 by (field; lra). lra.
Qed.

Section Compactness.
  Variables (n : nat) (M : mat).
  Let K (v : vec) : Prop := orthogonal n (unvec n v).
  Let f (v : vec) : R := mdot n (unvec n v) M.
  (** [sum_ij |M_ij|]. *)
  Let B : R := fsum n (fun i => fsum n (fun j => Rabs (M i j))).

  Let B_nonneg : 0 <= B.
  Proof. apply fsum_nonneg. intros i _. apply fsum_nonneg. intros j _. apply Rabs_pos. Qed.

  Let K_ne : exists v, K v.
  Proof.
    exists (tovec n kron). apply (orthogonal_ext n kron); [|apply orthogonal_id].
    intros i j Hi Hj. symmetry. apply unvec_tovec; assumption.
  Qed.

  Let K_box : forall x, K x -> forall c, (c < n * n)%nat -> -1 <= x c <= 1.
  Proof.
    intros x Hx c Hc. destruct (coord_entry n c Hc) as [Hi [Hj He]].
    pose proof (orthogonal_entry n (unvec n x) _ _ Hx Hi Hj) as H. unfold unvec in H. rewrite He in H. exact H.
  Qed.

  Let K_closed : forall x,
    (forall d, 0 < d -> exists y, K y /\ forall c, (c < n * n)%nat -> Rabs (x c - y c) <= d) -> K x.
  Proof.
    intros x Hx. apply rows_orthonormal_orthogonal. intros i k Hi Hk.
    apply Rminus_diag_uniq. apply (small_zero _ (INR n * (3 * 1))). intros d Hd Hd1.
    destruct (Hx d Hd) as [y [Hy Hc]]. rewrite <- (proj2 Hy i k Hi Hk), <- fsum_minus.
    assert (Hterm : forall j, (j < n)%nat ->
      - (3 * d) <= unvec n x i j * unvec n x k j - unvec n y i j * unvec n y k j <= 3 * d).
    { intros j Hj. apply Rabs_le_between. unfold unvec at 1 2.
      apply prod_close; [exact Hd | exact Hd1 | apply Hc, index_lt; assumption | apply Hc, index_lt; assumption
                        | apply (orthogonal_entry n); assumption | apply (orthogonal_entry n); assumption]. }
    apply Rabs_le_between. split.
    - replace (- (INR n * (3 * 1) * d)) with (fsum n (fun _ => - (3 * d))) by (rewrite fsum_const; ring).
      apply fsum_le. intros j Hj. apply Hterm, Hj.
    - replace (INR n * (3 * 1) * d) with (fsum n (fun _ => 3 * d)) by (rewrite fsum_const; ring).
      apply fsum_le. intros j Hj. apply Hterm, Hj.
  Qed.

  (** [<Y, M> <= <X, M> + d sum_ij |M_ij|] when the entries move by at most [d]. *)
  Let mdot_move : forall X Y d, (forall i j, (i < n)%nat -> (j < n)%nat -> Rabs (X i j - Y i j) <= d) ->
    mdot n Y M <= mdot n X M + d * B.
  Proof.
    intros X Y d H. unfold mdot, B. rewrite <- fsum_scal, <- fsum_plus. apply fsum_le. intros i Hi.
    rewrite <- fsum_scal, <- fsum_plus. apply fsum_le. intros j Hj.
    pose proof (Rle_abs ((Y i j - X i j) * M i j)) as H1. rewrite Rabs_mult, Rabs_minus_sym in H1.
    pose proof (Rmult_le_compat_r (Rabs (M i j)) _ _ (Rabs_pos (M i j)) (H i j Hi Hj)). nra.
  Qed.

  Let f_cont : forall x e, 0 < e -> exists d, 0 < d /\ forall y, K y ->
    (forall c, (c < n * n)%nat -> Rabs (x c - y c) <= d) -> f y <= f x + e.
  Proof.
    intros x e He. exists (e / (B + 1)). split; [apply Rdiv_lt_0_compat; lra|].
    intros y _ Hc. unfold f. eapply Rle_trans.
    - apply (mdot_move (unvec n x) (unvec n y) (e / (B + 1))). intros i j Hi Hj. apply Hc, index_lt; assumption.
    - assert (e / (B + 1) * B <= e); [|lra].
      apply Rmult_le_reg_r with (B + 1); [lra|]. field_simplify; [nra | lra].
  Qed.

  Let f_bound : exists b, forall x, K x -> f x <= b.
  Proof.
    exists B. intros x Hx. unfold f, mdot, B. apply fsum_le. intros i Hi. apply fsum_le. intros j Hj.
    pose proof (orthogonal_entry n _ i j Hx Hi Hj). pose proof (Rle_abs (M i j)). pose proof (Rle_abs (- M i j)).
    rewrite Rabs_Ropp in *. nra.
  Qed.

  (** [Q -> <Q, M>] has a maximizer among the orthogonal matrices. *)
  Lemma trace_maximizer : exists Q, orthogonal n Q /\ forall Q', orthogonal n Q' -> mdot n Q' M <= mdot n Q M.
  Proof.
    destruct (compact_max (n * n) K f K_ne K_box K_closed f_cont f_bound) as [v [Hv Hmax]].
    exists (unvec n v). split; [exact Hv|]. intros Q' HQ'.
    assert (HK : K (tovec n Q')).
    { apply (orthogonal_ext n Q'); [|exact HQ']. intros i j Hi Hj. symmetry. apply unvec_tovec; assumption. }
    pose proof (Hmax _ HK) as H. unfold f in H.
    rewrite (mdot_ext n (unvec n (tovec n Q')) Q') in H by (intros; apply unvec_tovec; assumption). exact H.
  Qed.
End Compactness.

(** L1, the polar factor (formerly an axiom): every real square matrix [M]
    has an orthogonal [Q] with [|M - Q|_F <= |M M^T - I|_F]; [Q] maximizes
    [<Q, M>] over the orthogonal matrices. *)
Theorem polar_factor :
  forall n (M : mat), exists Q, orthogonal n Q /\ frob n (mat_sub M Q) <= frob n (gram_defect n M).
Proof.
  intros n M. destruct (trace_maximizer n M) as [Q [HQ Hmax]].
  exists Q. split; [exact HQ|]. apply max_polar; assumption.
Qed.
