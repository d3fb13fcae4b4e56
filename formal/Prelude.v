(** * Shared definitions: finite sums, nonnegative series, Euclidean vectors.

    Everything in this file is proved from Coq's standard library and
    Coquelicot; it declares no axiom. *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz.
Open Scope R_scope.

(** ** Finite sums [fsum n f = f 0 + ... + f (n - 1)].
    A plain recursive definition, so that inductions on the dimension are
    direct (Coquelicot's [sum_n] counts [n + 1] terms). *)
Fixpoint fsum (n : nat) (f : nat -> R) : R :=
  match n with
  | O => 0
  | S m => fsum m f + f m
  end.

Lemma fsum_ext : forall n f g, (forall i, (i < n)%nat -> f i = g i) -> fsum n f = fsum n g.
Proof.
  induction n as [|n IH]; intros f g H; simpl; [reflexivity|].
  rewrite (IH f g) by (intros; apply H; lia). rewrite (H n) by lia. reflexivity.
Qed.

Lemma fsum_le : forall n f g, (forall i, (i < n)%nat -> f i <= g i) -> fsum n f <= fsum n g.
Proof.
  induction n as [|n IH]; intros f g H; simpl; [lra|].
  pose proof (IH f g (fun i Hi => H i ltac:(lia))). pose proof (H n ltac:(lia)). lra.
Qed.

Lemma fsum_const : forall n c, fsum n (fun _ => c) = INR n * c.
Proof.
  induction n as [|n IH]; intros c; [simpl; lra|]. rewrite S_INR. simpl fsum. rewrite IH. lra.
Qed.

Lemma fsum_plus : forall n f g, fsum n (fun i => f i + g i) = fsum n f + fsum n g.
Proof. induction n as [|n IH]; intros f g; simpl; [lra|]. rewrite IH. lra. Qed.

Lemma fsum_scal : forall n c f, fsum n (fun i => c * f i) = c * fsum n f.
Proof. induction n as [|n IH]; intros c f; simpl; [lra|]. rewrite IH. lra. Qed.

Lemma fsum_minus : forall n f g, fsum n (fun i => f i - g i) = fsum n f - fsum n g.
Proof. induction n as [|n IH]; intros f g; simpl; [lra|]. rewrite IH. lra. Qed.

Lemma fsum_nonneg : forall n f, (forall i, (i < n)%nat -> 0 <= f i) -> 0 <= fsum n f.
Proof.
  intros n f H. rewrite <- (Rmult_0_r (INR n)), <- fsum_const. apply fsum_le. exact H.
Qed.

(** Equality in a termwise inequality of finite sums forces termwise equality. *)
Lemma fsum_le_eq :
  forall n f g, (forall i, (i < n)%nat -> f i <= g i) -> fsum n f = fsum n g ->
  forall i, (i < n)%nat -> f i = g i.
Proof.
  induction n as [|n IH]; intros f g Hle Heq i Hi; [lia|]. simpl in Heq.
  pose proof (fsum_le n f g (fun j Hj => Hle j ltac:(lia))) as Hs.
  pose proof (Hle n ltac:(lia)) as Hn.
  assert (f n = g n) by lra.
  assert (fsum n f = fsum n g) by lra.
  destruct (Nat.eq_dec i n) as [->|Hne]; [assumption|].
  apply (IH f g); [intros j Hj; apply Hle; lia | assumption | lia].
Qed.

(** ** Nonnegative series. *)

Lemma sum_n_nonneg : forall a : nat -> R, (forall k, 0 <= a k) -> forall n, 0 <= sum_n a n.
Proof.
  intros a Ha n. induction n as [|n IH]; [rewrite sum_O; apply Ha|].
  rewrite sum_Sn. change (plus (sum_n a n) (a (S n))) with (sum_n a n + a (S n)).
  pose proof (Ha (S n)). lra.
Qed.

Lemma sum_n_mono : forall a : nat -> R, (forall k, 0 <= a k) -> forall n k, sum_n a n <= sum_n a (k + n).
Proof.
  intros a Ha n k. induction k as [|k IH]; simpl; [lra|].
  rewrite sum_Sn. change (plus (sum_n a (k + n)) (a (S (k + n)))) with (sum_n a (k + n) + a (S (k + n))).
  pose proof (Ha (S (k + n))). lra.
Qed.

(** A partial sum of a nonnegative series is below its sum. *)
Lemma partial_le_series :
  forall a l, (forall k, 0 <= a k) -> is_series a l -> forall n, sum_n a n <= l.
Proof.
  intros a l Ha Hs n.
  assert (Hl : is_lim_seq (fun k => sum_n a (k + n)) l).
  { apply (is_lim_seq_incr_n (sum_n a) n l). exact Hs. }
  pose proof (is_lim_seq_le (fun _ => sum_n a n) (fun k => sum_n a (k + n)) (sum_n a n) l
                (sum_n_mono a Ha n) (is_lim_seq_const _) Hl) as H.
  exact H.
Qed.

Lemma term_le_series : forall a l, (forall k, 0 <= a k) -> is_series a l -> forall n, a n <= l.
Proof.
  intros a l Ha Hs n. pose proof (partial_le_series a l Ha Hs n) as H.
  destruct n as [|n]; [rewrite sum_O in H; exact H|].
  rewrite sum_Sn in H. change (plus (sum_n a n) (a (S n))) with (sum_n a n + a (S n)) in H.
  pose proof (sum_n_nonneg a Ha n). lra.
Qed.

(** Nonnegative terms summing to zero all vanish (Coquelicot has no
    [Series_pos]; the argument goes through partial sums). *)
Lemma series_nonneg_zero : forall a, (forall k, 0 <= a k) -> is_series a 0 -> forall n, a n = 0.
Proof.
  intros a Ha Hs n. pose proof (term_le_series a 0 Ha Hs n). pose proof (Ha n). lra.
Qed.

Lemma series_nonneg : forall a l, (forall k, 0 <= a k) -> is_series a l -> 0 <= l.
Proof.
  intros a l Ha Hs. pose proof (term_le_series a l Ha Hs 0). pose proof (Ha 0%nat). lra.
Qed.

(** A sequence supported on degrees [0] and [1] sums to [a 0 + a 1]. *)
Lemma is_series_support01 :
  forall a, (forall d, (2 <= d)%nat -> a d = 0) -> is_series a (a 0%nat + a 1%nat).
Proof.
  intros a Ha. unfold is_series.
  apply (is_lim_seq_incr_n (sum_n a) 1 (a 0%nat + a 1%nat)).
  apply is_lim_seq_ext with (u := fun _ => a 0%nat + a 1%nat); [|apply is_lim_seq_const].
  intros k. induction k as [|k IH]; simpl.
  - rewrite sum_Sn, sum_O. reflexivity.
  - rewrite sum_Sn, <- IH. rewrite (Ha (S (k + 1))) by lia.
    unfold plus; simpl. lra.
Qed.

(** ** Euclidean vectors.  A vector of [R^n] is a map [nat -> R] of which
    only the coordinates [i < n] matter; every statement below quantifies over
    those coordinates only. *)
Definition vec := nat -> R.
Definition vadd (x y : vec) : vec := fun i => x i + y i.
Definition vsub (x y : vec) : vec := fun i => x i - y i.
Definition vscal (c : R) (x : vec) : vec := fun i => c * x i.
Definition dot (n : nat) (x y : vec) : R := fsum n (fun i => x i * y i).
Definition nsq (n : nat) (x : vec) : R := dot n x x.
(** The Euclidean norm. *)
Definition vnorm (n : nat) (x : vec) : R := sqrt (nsq n x).
(** Equality of vectors of [R^n]. *)
Definition veq (n : nat) (x y : vec) : Prop := forall i, (i < n)%nat -> x i = y i.

(** Matrices act on the first [n] coordinates. *)
Definition mat := nat -> nat -> R.
Definition mapply (n : nat) (A : mat) (x : vec) : vec := fun i => fsum n (fun j => A i j * x j).
Definition kron (i j : nat) : R := if Nat.eq_dec i j then 1 else 0.
(** [Q] is orthogonal: [Q^T Q = I] and [Q Q^T = I]. *)
Definition orthogonal (n : nat) (Q : mat) : Prop :=
  (forall i k, (i < n)%nat -> (k < n)%nat -> fsum n (fun j => Q j i * Q j k) = kron i k) /\
  (forall i k, (i < n)%nat -> (k < n)%nat -> fsum n (fun j => Q i j * Q k j) = kron i k).

Lemma nsq_nonneg : forall n x, 0 <= nsq n x.
Proof. intros n x. apply fsum_nonneg. intros i _. apply Rle_0_sqr. Qed.

Lemma dot_sym : forall n x y, dot n x y = dot n y x.
Proof. intros n x y. apply fsum_ext. intros i _. ring. Qed.

Lemma dot_sub_l : forall n x y z, dot n (vsub x y) z = dot n x z - dot n y z.
Proof. intros. unfold dot, vsub. rewrite <- fsum_minus. apply fsum_ext. intros; ring. Qed.

Lemma dot_sub_r : forall n x y z, dot n z (vsub x y) = dot n z x - dot n z y.
Proof. intros. rewrite !(dot_sym n z). apply dot_sub_l. Qed.

Lemma dot_add_l : forall n x y z, dot n (vadd x y) z = dot n x z + dot n y z.
Proof. intros. unfold dot, vadd. rewrite <- fsum_plus. apply fsum_ext. intros; ring. Qed.

Lemma dot_add_r : forall n x y z, dot n z (vadd x y) = dot n z x + dot n z y.
Proof. intros. rewrite !(dot_sym n z). apply dot_add_l. Qed.

Lemma dot_scal_l : forall n c x y, dot n (vscal c x) y = c * dot n x y.
Proof. intros. unfold dot, vscal. rewrite <- fsum_scal. apply fsum_ext. intros; ring. Qed.

Lemma dot_scal_r : forall n c x y, dot n y (vscal c x) = c * dot n y x.
Proof. intros. rewrite !(dot_sym n y). apply dot_scal_l. Qed.

Lemma nsq_zero : forall n x, nsq n x = 0 -> veq n x (fun _ => 0).
Proof.
  intros n x H i Hi.
  assert (Hz : forall j, (j < n)%nat -> x j * x j = 0).
  { intros j Hj. symmetry. apply (fsum_le_eq n (fun _ => 0) (fun j => x j * x j)); auto.
    - intros; apply Rle_0_sqr.
    - rewrite fsum_const. unfold nsq, dot in H. lra. }
  pose proof (Hz i Hi). nra.
Qed.

Lemma veq_ext_dot : forall n x y z, veq n x y -> dot n x z = dot n y z.
Proof. intros n x y z H. apply fsum_ext. intros i Hi. rewrite H by exact Hi. reflexivity. Qed.

Lemma vnorm_sq : forall n x, vnorm n x ^ 2 = nsq n x.
Proof. intros. unfold vnorm. simpl. rewrite Rmult_1_r. apply sqrt_sqrt, nsq_nonneg. Qed.

Lemma vnorm_nonneg : forall n x, 0 <= vnorm n x.
Proof. intros. apply sqrt_pos. Qed.

(** Comparing norms is comparing squared norms. *)
Lemma vnorm_le_iff : forall n x y, vnorm n x <= vnorm n y <-> nsq n x <= nsq n y.
Proof.
  intros n x y. unfold vnorm. pose proof (nsq_nonneg n x). pose proof (nsq_nonneg n y).
  split; intros Hle.
  - apply sqrt_le_0; assumption.
  - apply sqrt_le_1; assumption.
Qed.

Lemma vnorm_eq_iff : forall n x y, vnorm n x = vnorm n y <-> nsq n x = nsq n y.
Proof.
  intros n x y. unfold vnorm. pose proof (nsq_nonneg n x). pose proof (nsq_nonneg n y).
  split; intros Heq; [|rewrite Heq; reflexivity].
  rewrite <- (sqrt_sqrt (nsq n x)), <- (sqrt_sqrt (nsq n y)) by assumption. rewrite Heq. reflexivity.
Qed.

Lemma fsum_kron : forall n i (x : vec), (i < n)%nat -> fsum n (fun k => kron i k * x k) = x i.
Proof.
  induction n as [|n IH]; intros i x Hi; [lia|]. simpl.
  destruct (Nat.eq_dec i n) as [->|Hne].
  - rewrite (fsum_ext n _ (fun _ => 0)).
    + rewrite fsum_const. unfold kron. destruct (Nat.eq_dec n n); [ring | congruence].
    + intros k Hk. unfold kron. destruct (Nat.eq_dec n k); [lia | ring].
  - rewrite IH by lia. unfold kron. destruct (Nat.eq_dec i n); [congruence | ring].
Qed.

Lemma kron_sym : forall i k, kron i k = kron k i.
Proof.
  intros i k. unfold kron. destruct (Nat.eq_dec i k), (Nat.eq_dec k i); congruence || reflexivity.
Qed.

Lemma nsq_veq : forall n x y, veq n x y -> nsq n x = nsq n y.
Proof. intros n x y H. unfold nsq, dot. apply fsum_ext. intros i Hi. rewrite H by exact Hi. reflexivity. Qed.

Lemma dot_veq_zero : forall n a b, veq n a (fun _ => 0) -> dot n a b = 0.
Proof.
  intros n a b H. unfold dot. rewrite (fsum_ext n _ (fun _ => 0)); [rewrite fsum_const; ring|].
  intros i Hi. rewrite H by exact Hi. ring.
Qed.

Lemma fsum_swap : forall n m (F : nat -> nat -> R),
  fsum n (fun j => fsum m (fun k => F j k)) = fsum m (fun k => fsum n (fun j => F j k)).
Proof.
  induction n as [|n IH]; intros m F; simpl.
  - rewrite fsum_const. ring.
  - rewrite IH, <- fsum_plus. reflexivity.
Qed.
