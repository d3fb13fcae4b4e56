(** * The polar factor, proved without the spectral theorem.

    Let [Q] maximize [t(Q) = <Q, M> = sum_ij Q_ij M_ij] over the orthogonal
    matrices (it exists: [PolarExists.v]) and let [S = Q^T M].
    - For every orthogonal [G], [Q G] is orthogonal and [t(Q G) = <G, S>], so
      the identity maximizes [<G, S>] over orthogonal [G].
    - Against the rotations [G] of angle [theta] in the plane of two
      coordinates [a <> b] (rational parametrization [cos = (1 - u^2)/(1 + u^2)],
      [sin = 2u/(1 + u^2)]) this gives [u (S_ba - S_ab) <= u^2 (S_aa + S_bb)] for
      every [u], hence [S] is symmetric; against the reflections
      [G = I - 2 v v^T / |v|^2] it gives [v^T S v >= 0]: [S] is positive
      semidefinite.
    - [|M - Q|_F^2 = |S|_F^2 - 2 tr S + n] and [|M M^T - I|_F^2 = |S^T S|_F^2 -
      2 |S|_F^2 + n], and their difference is
      [tr (S^4 - 3 S^2 + 2 S) = sum_i (|S x_i|^2 + 2 x_i^T S x_i) >= 0], where
      [x_i] is the [i]-th column of [S - I] (the scalar identity
      [s^4 - 3 s^2 + 2 s = (s^2 - s)^2 + 2 s (s - 1)^2]).
    Finite sums only; no project axiom. *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz.
From LejepaId Require Import Prelude Matrix.
Open Scope R_scope.

(** [<A, B> = sum_ij A_ij B_ij]. *)
Definition mdot (n : nat) (A B : mat) : R := fsum n (fun i => fsum n (fun j => A i j * B i j)).

Lemma fsum_scal_r : forall n c f, fsum n f * c = fsum n (fun i => f i * c).
Proof. intros. rewrite Rmult_comm, <- fsum_scal. apply fsum_ext. intros; ring. Qed.

Lemma fsum_kron2 : forall n a b y z (F : vec), (a < n)%nat -> (b < n)%nat ->
  fsum n (fun j => (kron a j * y + kron b j * z) * F j) = y * F a + z * F b.
Proof.
  intros n a b y z F Ha Hb.
  rewrite (fsum_ext n _ (fun j => kron a j * (y * F j) + kron b j * (z * F j))) by (intros; ring).
  rewrite fsum_plus, (fsum_kron n a (fun j => y * F j) Ha), (fsum_kron n b (fun j => z * F j) Hb). reflexivity.
Qed.

Lemma fsum_kron3 : forall n i a b x y z (F : vec), (i < n)%nat -> (a < n)%nat -> (b < n)%nat ->
  fsum n (fun j => (kron i j * x + kron a j * y + kron b j * z) * F j) = x * F i + y * F a + z * F b.
Proof.
  intros n i a b x y z F Hi Ha Hb.
  rewrite (fsum_ext n _ (fun j => kron i j * (x * F j) + (kron a j * y + kron b j * z) * F j)) by (intros; ring).
  rewrite fsum_plus, (fsum_kron n i (fun j => x * F j) Hi), fsum_kron2 by assumption. ring.
Qed.

(** If the rows of [Q] are orthonormal, [x -> Q^T x] preserves dot products. *)
Lemma orth_dot : forall n Q (x y : vec), rows_orthonormal n Q ->
  fsum n (fun i => fsum n (fun p => Q p i * x p) * fsum n (fun q => Q q i * y q)) = fsum n (fun p => x p * y p).
Proof.
  intros n Q x y HQ.
  rewrite (fsum_ext n _ (fun i => fsum n (fun p => fsum n (fun q => Q p i * x p * (Q q i * y q)))))
    by (intros; apply fsum_mul_fsum).
  rewrite fsum_swap. apply fsum_ext. intros p Hp. rewrite fsum_swap.
  rewrite (fsum_ext n _ (fun q => kron p q * (x p * y q))); [apply (fsum_kron n p (fun q => x p * y q) Hp)|].
  intros q Hq. rewrite <- (HQ p q Hp Hq), fsum_scal_r. apply fsum_ext. intros; ring.
Qed.

(** ** First-order conditions: the identity maximizes [<G, S>] over orthogonal [G]. *)
Section FirstOrder.
  Variables (n : nat) (S : mat).
  Hypothesis Hc : forall G, rows_orthonormal n G -> mdot n G S <= fsum n (fun i => S i i).

  (** Reflections: [S] is positive semidefinite. *)
  Lemma max_psd : forall v : vec, 0 <= fsum n (fun p => fsum n (fun k => v p * S p k * v k)).
  Proof.
    intros v. pose proof (nsq_nonneg n v) as Hs. destruct (Req_dec (nsq n v) 0) as [H0|Hne].
    - pose proof (nsq_zero n v H0) as Hz. right. symmetry.
      rewrite (fsum_ext n _ (fun _ => 0)); [rewrite fsum_const; ring|].
      intros p Hp. rewrite (Hz p Hp). rewrite (fsum_ext n _ (fun _ => 0)); [rewrite fsum_const; ring|].
      intros; ring.
    - set (s2 := nsq n v) in *. set (al := 2 / s2).
      assert (Hal : 0 < al) by (unfold al; apply Rdiv_lt_0_compat; lra).
      set (G := fun i j => kron i j - al * v i * v j).
      assert (HG : rows_orthonormal n G).
      { intros i k Hi Hk. unfold G.
        rewrite (fsum_ext n _ (fun j => kron i j * (kron k j - al * v k * v j) + (- (al * v i)) * (kron k j * v j)
                                         + (al ^ 2 * v i * v k) * (v j * v j))) by (intros; ring).
        rewrite !fsum_plus, !fsum_scal, (fsum_kron n i (fun j => kron k j - al * v k * v j) Hi), (fsum_kron n k v Hk).
        fold (dot n v v). fold (nsq n v). fold s2. rewrite kron_sym. unfold al. field. lra. }
      pose proof (Hc G HG) as H. unfold mdot, G in H.
      rewrite (fsum_ext n _ (fun i => S i i - al * fsum n (fun k => v i * S i k * v k))) in H.
      + rewrite fsum_minus, fsum_scal in H. nra.
      + intros i Hi. rewrite <- fsum_scal, <- (fsum_kron n i (fun j => S i j) Hi), <- fsum_minus.
        apply fsum_ext. intros; ring.
  Qed.

  (** The Givens rotation [c, s] in the plane of [a] and [b]. *)
  Let gp (a b : nat) (c s : R) (i : nat) : R := (c - 1) * kron a i + s * kron b i.
  Let gq (a b : nat) (c s : R) (i : nat) : R := (c - 1) * kron b i - s * kron a i.
  Let givens (a b : nat) (c s : R) : mat :=
    fun i j => kron i j * 1 + kron a j * gp a b c s i + kron b j * gq a b c s i.

  Let givens_orth : forall a b c s, (a < n)%nat -> (b < n)%nat -> a <> b -> c ^ 2 + s ^ 2 = 1 ->
    rows_orthonormal n (givens a b c s).
  Proof.
    intros a b c s Ha Hb Hab Hcs i k Hi Hk. unfold givens at 1.
    rewrite (fsum_kron3 n i a b _ _ _ (fun j => givens a b c s k j) Hi Ha Hb).
    assert (Kaa : kron a a = 1) by (unfold kron; destruct (Nat.eq_dec a a); congruence).
    assert (Kbb : kron b b = 1) by (unfold kron; destruct (Nat.eq_dec b b); congruence).
    assert (Kab : kron a b = 0) by (unfold kron; destruct (Nat.eq_dec a b); congruence).
    assert (Kba : kron b a = 0) by (unfold kron; destruct (Nat.eq_dec b a); congruence).
    unfold givens, gp, gq. rewrite Kaa, Kbb, Kab, Kba, (kron_sym k a), (kron_sym k b), (kron_sym k i).
    (* the defect is [(kron a i kron a k + kron b i kron b k) (c^2 + s^2 - 1)] *)
    transitivity (kron i k + (kron a i * kron a k + kron b i * kron b k) * (c ^ 2 + s ^ 2 - 1)); [ring|].
    rewrite Hcs. ring.
  Qed.

  Let givens_mdot : forall a b c s, (a < n)%nat -> (b < n)%nat ->
    mdot n (givens a b c s) S = fsum n (fun i => S i i) + (c - 1) * (S a a + S b b) + s * (S b a - S a b).
  Proof.
    intros a b c s Ha Hb. unfold mdot.
    rewrite (fsum_ext n _ (fun i => S i i * 1 + gp a b c s i * S i a + gq a b c s i * S i b)).
    - rewrite !fsum_plus.
      rewrite (fsum_ext n (fun i => gp a b c s i * S i a) (fun i => (kron a i * (c - 1) + kron b i * s) * S i a))
        by (intros; unfold gp; ring).
      rewrite (fsum_ext n (fun i => gq a b c s i * S i b) (fun i => (kron a i * (- s) + kron b i * (c - 1)) * S i b))
        by (intros; unfold gq; ring).
      rewrite (fsum_kron2 n a b _ _ (fun i => S i a) Ha Hb), (fsum_kron2 n a b _ _ (fun i => S i b) Ha Hb).
      rewrite (fsum_ext n (fun i => S i i * 1) (fun i => S i i)) by (intros; ring). ring.
    - intros i Hi. unfold givens. rewrite (fsum_kron3 n i a b _ _ _ (fun j => S i j) Hi Ha Hb). ring.
  Qed.

  Lemma zero_of_quad : forall d A, (forall u, u * d <= u ^ 2 * A) -> d = 0.
  Proof.
    intros d A H. set (e := / (2 * (1 + Rabs A))).
    assert (He : 0 < e) by (unfold e; apply Rinv_0_lt_compat; pose proof (Rabs_pos A); lra).
    assert (HeA : e * A <= 1 / 2).
    { pose proof (Rle_abs A). assert (e * (2 * (1 + Rabs A)) = 1) by (unfold e; field; pose proof (Rabs_pos A); lra).
      nra. }
    pose proof (H (e * d)) as Hu.
    assert (H1 : e * d ^ 2 * (1 - e * A) <= 0)
      by (replace (e * d ^ 2 * (1 - e * A)) with (e * d * d - (e * d) ^ 2 * A) by ring; lra).
    assert (H2 : 0 < e * (1 - e * A)) by (apply Rmult_lt_0_compat; lra).
    assert (H3 : d ^ 2 * (e * (1 - e * A)) <= 0) by (replace (d ^ 2 * (e * (1 - e * A))) with (e * d ^ 2 * (1 - e * A)) by ring; lra).
    pose proof (pow2_ge_0 d). assert (d ^ 2 = 0) by nra. nra.
  Qed.

  (** Rotations: [S] is symmetric. *)
  Lemma max_sym : forall a b, (a < n)%nat -> (b < n)%nat -> S a b = S b a.
  Proof.
    intros a b Ha Hb. destruct (Nat.eq_dec a b) as [->|Hab]; [reflexivity|].
    assert (Hd : S b a - S a b = 0); [|lra].
    apply (zero_of_quad _ (S a a + S b b)). intros u.
    assert (Hp : 0 < 1 + u ^ 2) by (pose proof (pow2_ge_0 u); lra).
    set (c := (1 - u ^ 2) / (1 + u ^ 2)). set (s := 2 * u / (1 + u ^ 2)).
    assert (Hcs : c ^ 2 + s ^ 2 = 1) by (unfold c, s; field; lra).
    pose proof (Hc _ (givens_orth a b c s Ha Hb Hab Hcs)) as H. rewrite givens_mdot in H by assumption.
    assert (Hid : (c - 1) * (S a a + S b b) + s * (S b a - S a b) =
                  2 * (u * (S b a - S a b) - u ^ 2 * (S a a + S b b)) / (1 + u ^ 2)) by (unfold c, s; field; lra).
    assert (Hn : 2 * (u * (S b a - S a b) - u ^ 2 * (S a a + S b b)) / (1 + u ^ 2) <= 0) by lra.
    apply Rmult_le_compat_r with (r := (1 + u ^ 2) / 2) in Hn; [|lra].
    replace (2 * (u * (S b a - S a b) - u ^ 2 * (S a a + S b b)) / (1 + u ^ 2) * ((1 + u ^ 2) / 2))
      with (u * (S b a - S a b) - u ^ 2 * (S a a + S b b)) in Hn by (field; lra). lra.
  Qed.
End FirstOrder.

(** ** The trace inequality for a symmetric positive semidefinite [S]. *)
Section Trace.
  Variables (n : nat) (S : mat).
  Hypothesis Hsym : forall i j, (i < n)%nat -> (j < n)%nat -> S i j = S j i.
  Hypothesis Hpsd : forall v : vec, 0 <= fsum n (fun p => fsum n (fun k => v p * S p k * v k)).

  (** [(S^T S)_pi]. *)
  Let T p i := fsum n (fun k => S k p * S k i).

  Let column_term : forall i, (i < n)%nat ->
    0 <= fsum n (fun p => T p i ^ 2 - S p i ^ 2 - 2 * (kron i p * T p i) + 2 * (kron i p * S p i)).
  Proof.
    intros i Hi. set (x := fun k => S k i - kron k i).
    assert (Hw : forall p, (p < n)%nat -> fsum n (fun k => S p k * x k) = T p i - S p i).
    { intros p Hp. unfold x, T.
      rewrite (fsum_ext n _ (fun k => S k p * S k i - kron i k * S p k)).
      - rewrite fsum_minus, (fsum_kron n i (fun k => S p k) Hi). reflexivity.
      - intros k Hk. rewrite (Hsym p k Hp Hk), (kron_sym k i). ring. }
    pose proof (Hpsd x) as Hq.
    rewrite (fsum_ext n _ (fun p => x p * (T p i - S p i))) in Hq.
    2: { intros p Hp. rewrite <- (Hw p Hp), <- fsum_scal. apply fsum_ext. intros; ring. }
    assert (Hsq : 0 <= fsum n (fun p => (T p i - S p i) ^ 2)) by (apply fsum_nonneg; intros; apply pow2_ge_0).
    replace (fsum n (fun p => T p i ^ 2 - S p i ^ 2 - 2 * (kron i p * T p i) + 2 * (kron i p * S p i)))
      with (fsum n (fun p => (T p i - S p i) ^ 2) + 2 * fsum n (fun p => x p * (T p i - S p i))); [lra|].
    rewrite <- fsum_scal, <- fsum_plus. apply fsum_ext. intros p _. unfold x. rewrite (kron_sym p i). ring.
  Qed.

  Lemma trace_ineq :
    0 <= fsum n (fun j => fsum n (fun k => T j k ^ 2)) - 3 * fsum n (fun i => fsum n (fun j => S i j ^ 2)) +
         2 * fsum n (fun i => S i i).
  Proof.
    pose proof (fsum_nonneg n _ column_term) as H.
    rewrite (fsum_ext n _ (fun i => fsum n (fun p => T p i ^ 2) - fsum n (fun p => S p i ^ 2) - 2 * T i i + 2 * S i i)) in H.
    2: { intros i Hi. rewrite fsum_plus, !fsum_minus, !fsum_scal, (fsum_kron n i (fun p => T p i) Hi),
           (fsum_kron n i (fun p => S p i) Hi). reflexivity. }
    rewrite fsum_plus, !fsum_minus, !fsum_scal in H.
    assert (HT : fsum n (fun i => T i i) = fsum n (fun i => fsum n (fun j => S i j ^ 2))).
    { unfold T. rewrite fsum_swap. apply fsum_ext. intros; apply fsum_ext. intros; ring. }
    rewrite HT, (fsum_swap n n (fun i p => T p i ^ 2)), (fsum_swap n n (fun i p => S p i ^ 2)) in H. lra.
  Qed.
End Trace.

(** [tr ((M M^T)^2) = tr ((M^T M)^2)], written out. *)
Lemma gram_swap : forall n (M : mat),
  fsum n (fun i => fsum n (fun l => fsum n (fun j => M i j * M l j) ^ 2)) =
  fsum n (fun j => fsum n (fun k => fsum n (fun i => M i j * M i k) ^ 2)).
Proof.
  intros n M.
  transitivity (fsum n (fun i => fsum n (fun l => fsum n (fun j => fsum n (fun k => M i j * M l j * (M i k * M l k)))))).
  { apply fsum_ext; intros i _; apply fsum_ext; intros l _.
    rewrite <- fsum_mul_fsum. ring. }
  transitivity (fsum n (fun j => fsum n (fun k => fsum n (fun i => fsum n (fun l => M i j * M i k * (M l j * M l k)))))).
  2: { apply fsum_ext; intros j _; apply fsum_ext; intros k _. rewrite <- fsum_mul_fsum. ring. }
  (* reorder [i l j k] into [j k i l] *)
  rewrite (fsum_ext n _ (fun i => fsum n (fun j => fsum n (fun l => fsum n (fun k => M i j * M l j * (M i k * M l k))))))
    by (intros; apply fsum_swap).
  rewrite (fsum_ext n _ (fun i => fsum n (fun j => fsum n (fun k => fsum n (fun l => M i j * M l j * (M i k * M l k))))))
    by (intros; apply fsum_ext; intros; apply fsum_swap).
  rewrite fsum_swap. apply fsum_ext. intros j _. rewrite fsum_swap.
  apply fsum_ext; intros k _; apply fsum_ext; intros i _; apply fsum_ext; intros l _. ring.
Qed.

(** ** A maximizer of [<Q, M>] over the orthogonal matrices is a polar factor. *)
Section Maximizer.
  Variables (n : nat) (M Q : mat).
  Hypothesis HQ : orthogonal n Q.
  Hypothesis Hmax : forall Q', orthogonal n Q' -> mdot n Q' M <= mdot n Q M.

  Let HQr : rows_orthonormal n Q := proj2 HQ.
  (** [S = Q^T M]. *)
  Let S i j := fsum n (fun p => Q p i * M p j).
  (** [Q G]. *)
  Let prod (G : mat) i j := fsum n (fun k => Q i k * G k j).

  Let mdot_Q : mdot n Q M = fsum n (fun i => S i i).
  Proof. unfold mdot, S. rewrite fsum_swap. reflexivity. Qed.

  Let mdot_QG : forall G, mdot n (prod G) M = mdot n G S.
  Proof.
    intros G. unfold mdot, prod, S.
    rewrite (fsum_ext n _ (fun i => fsum n (fun k => fsum n (fun j => Q i k * G k j * M i j)))).
    2: { intros i _. rewrite <- fsum_swap. apply fsum_ext. intros j _. rewrite fsum_scal_r. reflexivity. }
    rewrite fsum_swap. apply fsum_ext. intros k _. rewrite fsum_swap. apply fsum_ext. intros j _.
    rewrite <- fsum_scal. apply fsum_ext. intros; ring.
  Qed.

  Let QG_orth : forall G, rows_orthonormal n G -> orthogonal n (prod G).
  Proof.
    intros G HG. apply rows_orthonormal_orthogonal. intros i k Hi Hk. unfold prod.
    rewrite (fsum_ext n _ (fun j => fsum n (fun p => G p j * Q i p) * fsum n (fun q => G q j * Q k q))).
    - rewrite (orth_dot n G (fun p => Q i p) (fun q => Q k q) HG). apply HQr; assumption.
    - intros j _. f_equal; apply fsum_ext; intros; ring.
  Qed.

  Let Hcond : forall G, rows_orthonormal n G -> mdot n G S <= fsum n (fun i => S i i).
  Proof. intros G HG. rewrite <- mdot_QG, <- mdot_Q. apply Hmax, QG_orth, HG. Qed.

  Let frob_MQ : fsum n (fun i => fsum n (fun j => mat_sub M Q i j ^ 2)) =
    fsum n (fun i => fsum n (fun j => M i j ^ 2)) - 2 * mdot n Q M + INR n.
  Proof.
    assert (HQ2 : fsum n (fun i => fsum n (fun j => Q i j ^ 2)) = INR n).
    { rewrite (fsum_ext n _ (fun _ => 1)); [rewrite fsum_const; ring|]. intros i Hi.
      rewrite (fsum_ext n _ (fun j => Q i j * Q i j)) by (intros; ring). rewrite (HQr i i Hi Hi).
      unfold kron. destruct (Nat.eq_dec i i); congruence. }
    unfold mdot, mat_sub. rewrite <- HQ2, <- fsum_scal, <- fsum_minus, <- fsum_plus.
    apply fsum_ext. intros i _. rewrite <- fsum_scal, <- fsum_minus, <- fsum_plus. apply fsum_ext. intros; ring.
  Qed.

  Let frob_G : fsum n (fun i => fsum n (fun l => gram_defect n M i l ^ 2)) =
    fsum n (fun i => fsum n (fun l => fsum n (fun j => M i j * M l j) ^ 2)) -
    2 * fsum n (fun i => fsum n (fun j => M i j ^ 2)) + INR n.
  Proof.
    unfold gram_defect.
    rewrite (fsum_ext n _ (fun i => fsum n (fun l => fsum n (fun j => M i j * M l j) ^ 2) - 2 * fsum n (fun j => M i j ^ 2) + 1)).
    - rewrite fsum_plus, fsum_minus, fsum_scal, fsum_const. ring.
    - intros i Hi.
      rewrite (fsum_ext n _ (fun l => fsum n (fun j => M i j * M l j) ^ 2 + kron i l * (1 - 2 * fsum n (fun j => M i j * M l j)))).
      + rewrite fsum_plus, (fsum_kron n i (fun l => 1 - 2 * fsum n (fun j => M i j * M l j)) Hi).
        rewrite (fsum_ext n (fun j => M i j * M i j) (fun j => M i j ^ 2)) by (intros; ring). ring.
      + intros l _. unfold kron. destruct (Nat.eq_dec i l); ring.
  Qed.

  Lemma max_polar : frob n (mat_sub M Q) <= frob n (gram_defect n M).
  Proof.
    pose proof (trace_ineq n S (max_sym n S Hcond) (max_psd n S Hcond)) as Hk. cbv beta in Hk.
    rewrite (fsum_ext n (fun j => fsum n (fun k => fsum n (fun p => S p j * S p k) ^ 2))
                       (fun j => fsum n (fun k => fsum n (fun a => M a j * M a k) ^ 2))) in Hk.
    2: { intros j _. apply fsum_ext. intros k _. unfold S.
         rewrite (orth_dot n Q (fun a => M a j) (fun a => M a k) HQr). reflexivity. }
    assert (HA : fsum n (fun i => fsum n (fun j => S i j ^ 2)) = fsum n (fun i => fsum n (fun j => M i j ^ 2))).
    { rewrite fsum_swap, (fsum_swap n n (fun i j => M i j ^ 2)). apply fsum_ext. intros j _.
      rewrite (fsum_ext n _ (fun i => S i j * S i j)) by (intros; ring). unfold S.
      rewrite (orth_dot n Q (fun a => M a j) (fun a => M a j) HQr). apply fsum_ext. intros; ring. }
    rewrite HA, <- gram_swap in Hk.
    unfold frob. apply sqrt_le_1_alt. rewrite frob_MQ, frob_G, mdot_Q. lra.
  Qed.
End Maximizer.
