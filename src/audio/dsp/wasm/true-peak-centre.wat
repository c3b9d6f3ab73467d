;; The true-peak interpolator's centre bound (true-peak-centre.ts centrePeak) for runs of 16-frame blocks, in
;; WebAssembly SIMD, bit for bit (decision 293): the loudness solve's block pruning (block-true-peaks.ts)
;; spends most of its JavaScript time there. The two lanes hold two neighbouring output points, each doing
;; exactly the JavaScript's operations in its order (folded pairs, then the four sums left to right, then
;; |sum| + |difference|); the larger of the two phase pairs is taken as the JavaScript's `a > b ? a : b`
;; (f64x2.pmax(b, a)) and the running maximum as its `if (v > best) best = v` (f64x2.pmax(best, v)), so a NaN is
;; skipped as there. The maximum over the outputs does not depend on their order.
;;
;; Layout, chosen by the caller (true-peak-centre-kernel.ts):
;;   coefficients at 0: the 16 folded centre values as centrePeak's CENTRE array, f64;
;;   samples at $x: float32, x[0] the input index 32 (HISTORY) before block 0's first output point;
;;   out at $out: one f64 per block, the centre peak of its 17 output points (as centrePeak(x, from, from + 17)).
;; Assembled by scripts/build-wasm.mjs into true-peak-centre.wasm.ts.
(module
  (memory (export "memory") 2)

  (func (export "centre_blocks") (param $x i32) (param $blocks i32) (param $out i32)
    (local $s0 v128) (local $d0 v128) (local $s1 v128) (local $d1 v128)
    (local $s2 v128) (local $d2 v128) (local $s3 v128) (local $d3 v128)
    (local $t0 v128) (local $e0 v128) (local $t1 v128) (local $e1 v128)
    (local $t2 v128) (local $e2 v128) (local $t3 v128) (local $e3 v128)
    (local $u0 v128) (local $w0 v128) (local $u1 v128) (local $w1 v128)
    (local $u2 v128) (local $w2 v128) (local $u3 v128) (local $w3 v128)
    (local $a v128) (local $b v128) (local $best v128) (local $v v128)
    (local $q i32) (local $k i32) (local $j i32) (local $l0 f64) (local $l1 f64)
    (local.set $s0 (f64x2.splat (f64.load offset=0 (i32.const 0))))
    (local.set $d0 (f64x2.splat (f64.load offset=8 (i32.const 0))))
    (local.set $t0 (f64x2.splat (f64.load offset=16 (i32.const 0))))
    (local.set $e0 (f64x2.splat (f64.load offset=24 (i32.const 0))))
    (local.set $s1 (f64x2.splat (f64.load offset=32 (i32.const 0))))
    (local.set $d1 (f64x2.splat (f64.load offset=40 (i32.const 0))))
    (local.set $t1 (f64x2.splat (f64.load offset=48 (i32.const 0))))
    (local.set $e1 (f64x2.splat (f64.load offset=56 (i32.const 0))))
    (local.set $s2 (f64x2.splat (f64.load offset=64 (i32.const 0))))
    (local.set $d2 (f64x2.splat (f64.load offset=72 (i32.const 0))))
    (local.set $t2 (f64x2.splat (f64.load offset=80 (i32.const 0))))
    (local.set $e2 (f64x2.splat (f64.load offset=88 (i32.const 0))))
    (local.set $s3 (f64x2.splat (f64.load offset=96 (i32.const 0))))
    (local.set $d3 (f64x2.splat (f64.load offset=104 (i32.const 0))))
    (local.set $t3 (f64x2.splat (f64.load offset=112 (i32.const 0))))
    (local.set $e3 (f64x2.splat (f64.load offset=120 (i32.const 0))))
    (local.set $k (i32.const 0))
    (block $done
      (loop $block
        (br_if $done (i32.ge_u (local.get $k) (local.get $blocks)))
        (local.set $best (v128.const f64x2 0 0))
        ;; Output point i = 32 + 16k + j reads x[i - 19] .. x[i - 12]: $q is x[i - 19]'s address.
        (local.set $q (i32.add (local.get $x) (i32.shl (i32.add (i32.const 13) (i32.shl (local.get $k) (i32.const 4))) (i32.const 2))))
        (local.set $j (i32.const 0))
        ;; Points j and j + 1 in the lanes, j = 0, 2, .., 16; the last pair's second lane (point 17) is dropped.
        (loop $pairs
          ;; a_n = x[i - 12 - n] at q + 4 (7 - n), b_n = x[i - 19 + n] at q + 4n; u = a + b, w = a - b.
          (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=28 (local.get $q))))
          (local.set $b (f64x2.promote_low_f32x4 (v128.load64_zero offset=0 (local.get $q))))
          (local.set $u0 (f64x2.add (local.get $a) (local.get $b)))
          (local.set $w0 (f64x2.sub (local.get $a) (local.get $b)))
          (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=24 (local.get $q))))
          (local.set $b (f64x2.promote_low_f32x4 (v128.load64_zero offset=4 (local.get $q))))
          (local.set $u1 (f64x2.add (local.get $a) (local.get $b)))
          (local.set $w1 (f64x2.sub (local.get $a) (local.get $b)))
          (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=20 (local.get $q))))
          (local.set $b (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $q))))
          (local.set $u2 (f64x2.add (local.get $a) (local.get $b)))
          (local.set $w2 (f64x2.sub (local.get $a) (local.get $b)))
          (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=16 (local.get $q))))
          (local.set $b (f64x2.promote_low_f32x4 (v128.load64_zero offset=12 (local.get $q))))
          (local.set $u3 (f64x2.add (local.get $a) (local.get $b)))
          (local.set $w3 (f64x2.sub (local.get $a) (local.get $b)))
          ;; a = |s03| + |d03| (phases 0 and 3), b = |s12| + |d12| (phases 1 and 2).
          (local.set $a
            (f64x2.add
              (f64x2.abs
                (f64x2.add
                  (f64x2.add
                    (f64x2.add (f64x2.mul (local.get $s0) (local.get $u0)) (f64x2.mul (local.get $s1) (local.get $u1)))
                    (f64x2.mul (local.get $s2) (local.get $u2)))
                  (f64x2.mul (local.get $s3) (local.get $u3))))
              (f64x2.abs
                (f64x2.add
                  (f64x2.add
                    (f64x2.add (f64x2.mul (local.get $d0) (local.get $w0)) (f64x2.mul (local.get $d1) (local.get $w1)))
                    (f64x2.mul (local.get $d2) (local.get $w2)))
                  (f64x2.mul (local.get $d3) (local.get $w3))))))
          (local.set $b
            (f64x2.add
              (f64x2.abs
                (f64x2.add
                  (f64x2.add
                    (f64x2.add (f64x2.mul (local.get $t0) (local.get $u0)) (f64x2.mul (local.get $t1) (local.get $u1)))
                    (f64x2.mul (local.get $t2) (local.get $u2)))
                  (f64x2.mul (local.get $t3) (local.get $u3))))
              (f64x2.abs
                (f64x2.add
                  (f64x2.add
                    (f64x2.add (f64x2.mul (local.get $e0) (local.get $w0)) (f64x2.mul (local.get $e1) (local.get $w1)))
                    (f64x2.mul (local.get $e2) (local.get $w2)))
                  (f64x2.mul (local.get $e3) (local.get $w3))))))
          (local.set $v (f64x2.pmax (local.get $b) (local.get $a)))
          ;; Point 17 is the next block's: lane 1 of the last pair repeats lane 0 instead.
          (if (i32.eq (local.get $j) (i32.const 16))
            (then (local.set $v (f64x2.splat (f64x2.extract_lane 0 (local.get $v))))))
          (local.set $best (f64x2.pmax (local.get $best) (local.get $v)))
          (local.set $q (i32.add (local.get $q) (i32.const 8)))
          (local.set $j (i32.add (local.get $j) (i32.const 2)))
          (br_if $pairs (i32.le_u (local.get $j) (i32.const 16))))
        (local.set $l0 (f64x2.extract_lane 0 (local.get $best)))
        (local.set $l1 (f64x2.extract_lane 1 (local.get $best)))
        (f64.store
          (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 3)))
          (f64.mul (select (local.get $l1) (local.get $l0) (f64.gt (local.get $l1) (local.get $l0))) (f64.const 0.5)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $block)))))
