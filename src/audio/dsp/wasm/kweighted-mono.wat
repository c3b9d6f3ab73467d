;; LoudnessMeter's one-channel K-weighting (loudness.ts #filterAndSquare) in WebAssembly SIMD, bit for bit
;; (decision 314). One channel has no second channel to fill the other lane, and each filter is a chain of
;; dependent multiply-adds; so the two stages run side by side, a sample apart: lane 0 the shelf at sample i,
;; lane 1 the high-pass at sample i - 1 (whose input, the shelf's output at i - 1, came out of the step
;; before). Each lane does exactly the JavaScript's operations in its order, so the sums are identical.
;;
;; Layout, chosen by the caller (kweighted-mono.ts):
;;   coefficients: b0 b1 b2 a1 a2, each an f64x2 of (shelf, high-pass), 80 bytes;
;;   state: s1 then s2, each an f64x2 of (shelf, high-pass), 32 bytes;
;;   samples: a float32 array of n frames; sum: one f64 the squares are added to, in sample order.
;; Assembled by scripts/build-wasm.mjs into kweighted-mono.wasm.ts.
(module
  (memory (export "memory") 1)

  ;; Decaying state under 1e-25 becomes 0 when `flush` is set (the JS does it at the end of every call).
  (func $settle (param $v v128) (param $flush i32) (result v128)
    (if (result v128) (local.get $flush)
      (then
        (v128.andnot (local.get $v)
          (f64x2.lt (f64x2.abs (local.get $v)) (f64x2.splat (f64.const 1e-25)))))
      (else (local.get $v))))

  (func (export "kweighted_mono")
    (param $c i32) (param $st i32) (param $p i32) (param $n i32) (param $sumAt i32) (param $flush i32)
    (local $b0 v128) (local $b1 v128) (local $b2 v128) (local $a1 v128) (local $a2 v128)
    (local $s1 v128) (local $s2 v128) (local $in v128) (local $y v128) (local $sum f64)
    (local $t1 v128) (local $t2 v128) (local $end i32)
    (if (i32.eqz (local.get $n)) (then (return)))
    (local.set $b0 (v128.load offset=0 (local.get $c)))
    (local.set $b1 (v128.load offset=16 (local.get $c)))
    (local.set $b2 (v128.load offset=32 (local.get $c)))
    (local.set $a1 (v128.load offset=48 (local.get $c)))
    (local.set $a2 (v128.load offset=64 (local.get $c)))
    (local.set $s1 (v128.load offset=0 (local.get $st)))
    (local.set $s2 (v128.load offset=16 (local.get $st)))
    (local.set $sum (f64.load (local.get $sumAt)))
    (local.set $end (i32.add (local.get $p) (i32.shl (local.get $n) (i32.const 2))))
    ;; First sample: the shelf alone (lane 1's results are dropped: the high-pass has no sample yet).
    (local.set $in (f64x2.splat (f64.promote_f32 (f32.load (local.get $p)))))
    (local.set $y (f64x2.add (f64x2.mul (local.get $b0) (local.get $in)) (local.get $s1)))
    (local.set $t1
      (f64x2.add
        (f64x2.sub (f64x2.mul (local.get $b1) (local.get $in)) (f64x2.mul (local.get $a1) (local.get $y)))
        (local.get $s2)))
    (local.set $t2 (f64x2.sub (f64x2.mul (local.get $b2) (local.get $in)) (f64x2.mul (local.get $a2) (local.get $y))))
    (local.set $s1 (f64x2.replace_lane 1 (local.get $t1) (f64x2.extract_lane 1 (local.get $s1))))
    (local.set $s2 (f64x2.replace_lane 1 (local.get $t2) (f64x2.extract_lane 1 (local.get $s2))))
    (local.set $p (i32.add (local.get $p) (i32.const 4)))
    ;; Then each step: (x[i], shelf output i - 1) in, (shelf output i, high-pass output i - 1) out.
    (block $done
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (loop $frame
        (local.set $in
          (f64x2.replace_lane 0
            (f64x2.splat (f64x2.extract_lane 0 (local.get $y)))
            (f64.promote_f32 (f32.load (local.get $p)))))
        (local.set $y (f64x2.add (f64x2.mul (local.get $b0) (local.get $in)) (local.get $s1)))
        (local.set $s1
          (f64x2.add
            (f64x2.sub (f64x2.mul (local.get $b1) (local.get $in)) (f64x2.mul (local.get $a1) (local.get $y)))
            (local.get $s2)))
        (local.set $s2 (f64x2.sub (f64x2.mul (local.get $b2) (local.get $in)) (f64x2.mul (local.get $a2) (local.get $y))))
        (local.set $sum
          (f64.add (local.get $sum) (f64x2.extract_lane 1 (f64x2.mul (local.get $y) (local.get $y)))))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (br_if $frame (i32.lt_u (local.get $p) (local.get $end)))))
    ;; Last sample: the high-pass alone (lane 0's results are dropped: the shelf has gone past the end).
    (local.set $in (f64x2.splat (f64x2.extract_lane 0 (local.get $y))))
    (local.set $y (f64x2.add (f64x2.mul (local.get $b0) (local.get $in)) (local.get $s1)))
    (local.set $t1
      (f64x2.add
        (f64x2.sub (f64x2.mul (local.get $b1) (local.get $in)) (f64x2.mul (local.get $a1) (local.get $y)))
        (local.get $s2)))
    (local.set $t2 (f64x2.sub (f64x2.mul (local.get $b2) (local.get $in)) (f64x2.mul (local.get $a2) (local.get $y))))
    (local.set $s1 (f64x2.replace_lane 0 (local.get $t1) (f64x2.extract_lane 0 (local.get $s1))))
    (local.set $s2 (f64x2.replace_lane 0 (local.get $t2) (f64x2.extract_lane 0 (local.get $s2))))
    (local.set $sum
      (f64.add (local.get $sum) (f64x2.extract_lane 1 (f64x2.mul (local.get $y) (local.get $y)))))
    (f64.store (local.get $sumAt) (local.get $sum))
    (v128.store offset=0 (local.get $st) (call $settle (local.get $s1) (local.get $flush)))
    (v128.store offset=16 (local.get $st) (call $settle (local.get $s2) (local.get $flush))))
)
