;; DSP kernels in WebAssembly SIMD (decision 160): two independent computations in the two lanes of one
;; f64x2, mostly the left and right channels. Each does the operations of a JavaScript loop in the same
;; order, so the output is bit for bit the same: lane-wise f64 mul, add and sub are IEEE-754 exact-rounded
;; (no fused multiply-add), and a rounding to float32 is JavaScript's Math.fround.
;; - `cascade`: BiquadCascade.processStereo (biquad.ts), two or three sections per loop;
;; - `kweighted_blocks`: BlockAnalysis's stereo push (loudness-target.ts), K-weighted energy and sample peak
;;   per 16-frame block;
;; - `kweighted_sums`: LoudnessMeter's stereo K-weighting (loudness.ts), the two channels' sums of squares;
;; - `true_peaks`: interpolatePeaks (true-peak.ts), two consecutive indices per vector.
;;
;; Assembled by scripts/build-wasm.mjs into simd-kernels.wasm.ts (the bytes the code loads).
;;
;; The cascade's memory layout, chosen by the caller (simd-kernels.ts):
;;   coefficients: 80 bytes per section, b0 b1 b2 a1 a2 each as an f64x2 with the value in both lanes;
;;   state: 32 bytes per section, s1 then s2, each an f64x2 of (left, right);
;;   samples: two float32 arrays of n frames, left and right.
(module
  (memory (export "memory") 1)

  ;; The state as stored after a call: decaying values under 1e-25 become 0 when `flush` is set (as the JS
  ;; does at the end of every call), so tails never reach denormal doubles.
  (func $settle (param $v v128) (param $flush i32) (result v128)
    (if (result v128) (local.get $flush)
      (then
        (v128.andnot (local.get $v)
          (f64x2.lt (f64x2.abs (local.get $v)) (f64x2.splat (f64.const 1e-25)))))
      (else (local.get $v))))

  ;; Two sections over n frames. The first section's output is rounded to float32 before the second reads
  ;; it, as if it had been stored in the buffer (BiquadCascade's #stereoPair).
  (func $pair (param $c i32) (param $st i32) (param $pl i32) (param $pr i32) (param $n i32) (param $flush i32)
    (local $b0 v128) (local $b1 v128) (local $b2 v128) (local $a1 v128) (local $a2 v128)
    (local $d0 v128) (local $d1 v128) (local $d2 v128) (local $e1 v128) (local $e2 v128)
    (local $l1 v128) (local $l2 v128) (local $m1 v128) (local $m2 v128)
    (local $x v128) (local $y v128) (local $f v128) (local $z v128)
    (local $end i32)
    (local.set $b0 (v128.load offset=0 (local.get $c)))
    (local.set $b1 (v128.load offset=16 (local.get $c)))
    (local.set $b2 (v128.load offset=32 (local.get $c)))
    (local.set $a1 (v128.load offset=48 (local.get $c)))
    (local.set $a2 (v128.load offset=64 (local.get $c)))
    (local.set $d0 (v128.load offset=80 (local.get $c)))
    (local.set $d1 (v128.load offset=96 (local.get $c)))
    (local.set $d2 (v128.load offset=112 (local.get $c)))
    (local.set $e1 (v128.load offset=128 (local.get $c)))
    (local.set $e2 (v128.load offset=144 (local.get $c)))
    (local.set $l1 (v128.load offset=0 (local.get $st)))
    (local.set $l2 (v128.load offset=16 (local.get $st)))
    (local.set $m1 (v128.load offset=32 (local.get $st)))
    (local.set $m2 (v128.load offset=48 (local.get $st)))
    (local.set $end (i32.add (local.get $pl) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (br_if $done (i32.ge_u (local.get $pl) (local.get $end)))
      (loop $next
        (local.set $x
          (f64x2.replace_lane 1
            (f64x2.splat (f64.promote_f32 (f32.load (local.get $pl))))
            (f64.promote_f32 (f32.load (local.get $pr)))))
        ;; y = b0 x + s1; s1 = b1 x - a1 y + s2; s2 = b2 x - a2 y
        (local.set $y (f64x2.add (f64x2.mul (local.get $b0) (local.get $x)) (local.get $l1)))
        (local.set $l1
          (f64x2.add
            (f64x2.sub (f64x2.mul (local.get $b1) (local.get $x)) (f64x2.mul (local.get $a1) (local.get $y)))
            (local.get $l2)))
        (local.set $l2 (f64x2.sub (f64x2.mul (local.get $b2) (local.get $x)) (f64x2.mul (local.get $a2) (local.get $y))))
        (local.set $f (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $y))))
        (local.set $z (f64x2.add (f64x2.mul (local.get $d0) (local.get $f)) (local.get $m1)))
        (local.set $m1
          (f64x2.add
            (f64x2.sub (f64x2.mul (local.get $d1) (local.get $f)) (f64x2.mul (local.get $e1) (local.get $z)))
            (local.get $m2)))
        (local.set $m2 (f64x2.sub (f64x2.mul (local.get $d2) (local.get $f)) (f64x2.mul (local.get $e2) (local.get $z))))
        (f32.store (local.get $pl) (f32.demote_f64 (f64x2.extract_lane 0 (local.get $z))))
        (f32.store (local.get $pr) (f32.demote_f64 (f64x2.extract_lane 1 (local.get $z))))
        (local.set $pl (i32.add (local.get $pl) (i32.const 4)))
        (local.set $pr (i32.add (local.get $pr) (i32.const 4)))
        (br_if $next (i32.lt_u (local.get $pl) (local.get $end)))))
    (v128.store offset=0 (local.get $st) (call $settle (local.get $l1) (local.get $flush)))
    (v128.store offset=16 (local.get $st) (call $settle (local.get $l2) (local.get $flush)))
    (v128.store offset=32 (local.get $st) (call $settle (local.get $m1) (local.get $flush)))
    (v128.store offset=48 (local.get $st) (call $settle (local.get $m2) (local.get $flush))))

;; Three sections over n frames, the first three of an odd count: a pair and a lone section would leave
  ;; one recursion alone in a loop, bound by its own latency. Same roundings as three separate passes.
  (func $triple (param $c i32) (param $st i32) (param $pl i32) (param $pr i32) (param $n i32) (param $flush i32)
    (local $b0 v128) (local $b1 v128) (local $b2 v128) (local $a1 v128) (local $a2 v128)
    (local $d0 v128) (local $d1 v128) (local $d2 v128) (local $e1 v128) (local $e2 v128)
    (local $g0 v128) (local $g1 v128) (local $g2 v128) (local $h1 v128) (local $h2 v128)
    (local $l1 v128) (local $l2 v128) (local $m1 v128) (local $m2 v128) (local $k1 v128) (local $k2 v128)
    (local $x v128) (local $y v128) (local $f v128) (local $z v128) (local $u v128) (local $w v128)
    (local $end i32)
    (local.set $b0 (v128.load offset=0 (local.get $c)))
    (local.set $b1 (v128.load offset=16 (local.get $c)))
    (local.set $b2 (v128.load offset=32 (local.get $c)))
    (local.set $a1 (v128.load offset=48 (local.get $c)))
    (local.set $a2 (v128.load offset=64 (local.get $c)))
    (local.set $d0 (v128.load offset=80 (local.get $c)))
    (local.set $d1 (v128.load offset=96 (local.get $c)))
    (local.set $d2 (v128.load offset=112 (local.get $c)))
    (local.set $e1 (v128.load offset=128 (local.get $c)))
    (local.set $e2 (v128.load offset=144 (local.get $c)))
    (local.set $g0 (v128.load offset=160 (local.get $c)))
    (local.set $g1 (v128.load offset=176 (local.get $c)))
    (local.set $g2 (v128.load offset=192 (local.get $c)))
    (local.set $h1 (v128.load offset=208 (local.get $c)))
    (local.set $h2 (v128.load offset=224 (local.get $c)))
    (local.set $l1 (v128.load offset=0 (local.get $st)))
    (local.set $l2 (v128.load offset=16 (local.get $st)))
    (local.set $m1 (v128.load offset=32 (local.get $st)))
    (local.set $m2 (v128.load offset=48 (local.get $st)))
    (local.set $k1 (v128.load offset=64 (local.get $st)))
    (local.set $k2 (v128.load offset=80 (local.get $st)))
    (local.set $end (i32.add (local.get $pl) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (br_if $done (i32.ge_u (local.get $pl) (local.get $end)))
      (loop $next
        (local.set $x
          (f64x2.replace_lane 1
            (f64x2.splat (f64.promote_f32 (f32.load (local.get $pl))))
            (f64.promote_f32 (f32.load (local.get $pr)))))
        (local.set $y (f64x2.add (f64x2.mul (local.get $b0) (local.get $x)) (local.get $l1)))
        (local.set $l1
          (f64x2.add
            (f64x2.sub (f64x2.mul (local.get $b1) (local.get $x)) (f64x2.mul (local.get $a1) (local.get $y)))
            (local.get $l2)))
        (local.set $l2 (f64x2.sub (f64x2.mul (local.get $b2) (local.get $x)) (f64x2.mul (local.get $a2) (local.get $y))))
        (local.set $f (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $y))))
        (local.set $z (f64x2.add (f64x2.mul (local.get $d0) (local.get $f)) (local.get $m1)))
        (local.set $m1
          (f64x2.add
            (f64x2.sub (f64x2.mul (local.get $d1) (local.get $f)) (f64x2.mul (local.get $e1) (local.get $z)))
            (local.get $m2)))
        (local.set $m2 (f64x2.sub (f64x2.mul (local.get $d2) (local.get $f)) (f64x2.mul (local.get $e2) (local.get $z))))
        (local.set $u (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $z))))
        (local.set $w (f64x2.add (f64x2.mul (local.get $g0) (local.get $u)) (local.get $k1)))
        (local.set $k1
          (f64x2.add
            (f64x2.sub (f64x2.mul (local.get $g1) (local.get $u)) (f64x2.mul (local.get $h1) (local.get $w)))
            (local.get $k2)))
        (local.set $k2 (f64x2.sub (f64x2.mul (local.get $g2) (local.get $u)) (f64x2.mul (local.get $h2) (local.get $w))))
        (f32.store (local.get $pl) (f32.demote_f64 (f64x2.extract_lane 0 (local.get $w))))
        (f32.store (local.get $pr) (f32.demote_f64 (f64x2.extract_lane 1 (local.get $w))))
        (local.set $pl (i32.add (local.get $pl) (i32.const 4)))
        (local.set $pr (i32.add (local.get $pr) (i32.const 4)))
        (br_if $next (i32.lt_u (local.get $pl) (local.get $end)))))
    (v128.store offset=0 (local.get $st) (call $settle (local.get $l1) (local.get $flush)))
    (v128.store offset=16 (local.get $st) (call $settle (local.get $l2) (local.get $flush)))
    (v128.store offset=32 (local.get $st) (call $settle (local.get $m1) (local.get $flush)))
    (v128.store offset=48 (local.get $st) (call $settle (local.get $m2) (local.get $flush)))
    (v128.store offset=64 (local.get $st) (call $settle (local.get $k1) (local.get $flush)))
    (v128.store offset=80 (local.get $st) (call $settle (local.get $k2) (local.get $flush))))

    ;; One section over n frames (BiquadCascade's #stereoSection).
  (func $single (param $c i32) (param $st i32) (param $pl i32) (param $pr i32) (param $n i32) (param $flush i32)
    (local $b0 v128) (local $b1 v128) (local $b2 v128) (local $a1 v128) (local $a2 v128)
    (local $s1 v128) (local $s2 v128) (local $x v128) (local $y v128)
    (local $end i32)
    (local.set $b0 (v128.load offset=0 (local.get $c)))
    (local.set $b1 (v128.load offset=16 (local.get $c)))
    (local.set $b2 (v128.load offset=32 (local.get $c)))
    (local.set $a1 (v128.load offset=48 (local.get $c)))
    (local.set $a2 (v128.load offset=64 (local.get $c)))
    (local.set $s1 (v128.load offset=0 (local.get $st)))
    (local.set $s2 (v128.load offset=16 (local.get $st)))
    (local.set $end (i32.add (local.get $pl) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (br_if $done (i32.ge_u (local.get $pl) (local.get $end)))
      (loop $next
        (local.set $x
          (f64x2.replace_lane 1
            (f64x2.splat (f64.promote_f32 (f32.load (local.get $pl))))
            (f64.promote_f32 (f32.load (local.get $pr)))))
        (local.set $y (f64x2.add (f64x2.mul (local.get $b0) (local.get $x)) (local.get $s1)))
        (local.set $s1
          (f64x2.add
            (f64x2.sub (f64x2.mul (local.get $b1) (local.get $x)) (f64x2.mul (local.get $a1) (local.get $y)))
            (local.get $s2)))
        (local.set $s2 (f64x2.sub (f64x2.mul (local.get $b2) (local.get $x)) (f64x2.mul (local.get $a2) (local.get $y))))
        (f32.store (local.get $pl) (f32.demote_f64 (f64x2.extract_lane 0 (local.get $y))))
        (f32.store (local.get $pr) (f32.demote_f64 (f64x2.extract_lane 1 (local.get $y))))
        (local.set $pl (i32.add (local.get $pl) (i32.const 4)))
        (local.set $pr (i32.add (local.get $pr) (i32.const 4)))
        (br_if $next (i32.lt_u (local.get $pl) (local.get $end)))))
    (v128.store offset=0 (local.get $st) (call $settle (local.get $s1) (local.get $flush)))
    (v128.store offset=16 (local.get $st) (call $settle (local.get $s2) (local.get $flush))))

;; `count` sections over n frames: an odd count starts with three in one loop (one alone only when it is
  ;; the only one), the rest go in pairs. The grouping does not change a sample: each group rounds between
  ;; its sections as separate passes would. Two per loop measured fastest (four or more spill registers).
  (func (export "cascade")
    (param $c i32) (param $st i32) (param $count i32) (param $pl i32) (param $pr i32) (param $n i32) (param $flush i32)
    (if (i32.eq (local.get $count) (i32.const 1))
      (then
        (call $single (local.get $c) (local.get $st) (local.get $pl) (local.get $pr) (local.get $n) (local.get $flush))
        (return)))
    (if (i32.and (local.get $count) (i32.const 1))
      (then
        (call $triple (local.get $c) (local.get $st) (local.get $pl) (local.get $pr) (local.get $n) (local.get $flush))
        (local.set $c (i32.add (local.get $c) (i32.const 240)))
        (local.set $st (i32.add (local.get $st) (i32.const 96)))
        (local.set $count (i32.sub (local.get $count) (i32.const 3)))))
    (block $out
      (loop $more
        (br_if $out (i32.lt_u (local.get $count) (i32.const 2)))
        (call $pair (local.get $c) (local.get $st) (local.get $pl) (local.get $pr) (local.get $n) (local.get $flush))
        (local.set $c (i32.add (local.get $c) (i32.const 160)))
        (local.set $st (i32.add (local.get $st) (i32.const 64)))
        (local.set $count (i32.sub (local.get $count) (i32.const 2)))
        (br $more))))

  ;; K-weighting (the shelf, then the high-pass, the state on doubles with no rounding between) over n frames,
  ;; with the sum of zl^2 + zr^2 and the largest |sample| of each run of frames inside one 16-frame block:
  ;; pairs of f64 (sum, max) at $out, one per block touched; `phase` is the first frame's place in its
  ;; block. Coefficients at $c (shelf b0 b1 b2 a1 a2, then the high-pass's, as splats), state at $st (shelf
  ;; s1 s2, high-pass s1 s2, each (left, right)).
  (func (export "kweighted_blocks")
    (param $c i32) (param $st i32) (param $pl i32) (param $pr i32) (param $n i32) (param $phase i32)
    (param $out i32) (param $flush i32)
    (local $sb0 v128) (local $sb1 v128) (local $sb2 v128) (local $sa1 v128) (local $sa2 v128)
    (local $hb0 v128) (local $hb1 v128) (local $hb2 v128) (local $ha1 v128) (local $ha2 v128)
    (local $s1 v128) (local $s2 v128) (local $h1 v128) (local $h2 v128)
    (local $x v128) (local $y v128) (local $z v128) (local $zz v128)
    (local $xl f64) (local $xr f64) (local $al f64) (local $ar f64)
    (local $sum f64) (local $max f64) (local $end i32) (local $stop i32)
    (local.set $sb0 (v128.load offset=0 (local.get $c)))
    (local.set $sb1 (v128.load offset=16 (local.get $c)))
    (local.set $sb2 (v128.load offset=32 (local.get $c)))
    (local.set $sa1 (v128.load offset=48 (local.get $c)))
    (local.set $sa2 (v128.load offset=64 (local.get $c)))
    (local.set $hb0 (v128.load offset=80 (local.get $c)))
    (local.set $hb1 (v128.load offset=96 (local.get $c)))
    (local.set $hb2 (v128.load offset=112 (local.get $c)))
    (local.set $ha1 (v128.load offset=128 (local.get $c)))
    (local.set $ha2 (v128.load offset=144 (local.get $c)))
    (local.set $s1 (v128.load offset=0 (local.get $st)))
    (local.set $s2 (v128.load offset=16 (local.get $st)))
    (local.set $h1 (v128.load offset=32 (local.get $st)))
    (local.set $h2 (v128.load offset=48 (local.get $st)))
    (local.set $end (i32.add (local.get $pl) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (loop $block
        (br_if $done (i32.ge_u (local.get $pl) (local.get $end)))
        ;; This run ends at the block's end or at the last frame.
        (local.set $stop
          (i32.add (local.get $pl) (i32.shl (i32.sub (i32.const 16) (local.get $phase)) (i32.const 2))))
        (if (i32.gt_u (local.get $stop) (local.get $end)) (then (local.set $stop (local.get $end))))
        (local.set $phase (i32.const 0))
        (local.set $sum (f64.const 0))
        (local.set $max (f64.const 0))
        (loop $frame
          (local.set $xl (f64.promote_f32 (f32.load (local.get $pl))))
          (local.set $xr (f64.promote_f32 (f32.load (local.get $pr))))
          ;; if (al > max) max = al; if (ar > max) max = ar (|x| of a float32 is exact in a double)
          (local.set $al (f64.abs (local.get $xl)))
          (local.set $ar (f64.abs (local.get $xr)))
          (if (f64.gt (local.get $al) (local.get $max)) (then (local.set $max (local.get $al))))
          (if (f64.gt (local.get $ar) (local.get $max)) (then (local.set $max (local.get $ar))))
          (local.set $x (f64x2.replace_lane 1 (f64x2.splat (local.get $xl)) (local.get $xr)))
          (local.set $y (f64x2.add (f64x2.mul (local.get $sb0) (local.get $x)) (local.get $s1)))
          (local.set $s1
            (f64x2.add
              (f64x2.sub (f64x2.mul (local.get $sb1) (local.get $x)) (f64x2.mul (local.get $sa1) (local.get $y)))
              (local.get $s2)))
          (local.set $s2 (f64x2.sub (f64x2.mul (local.get $sb2) (local.get $x)) (f64x2.mul (local.get $sa2) (local.get $y))))
          (local.set $z (f64x2.add (f64x2.mul (local.get $hb0) (local.get $y)) (local.get $h1)))
          (local.set $h1
            (f64x2.add
              (f64x2.sub (f64x2.mul (local.get $hb1) (local.get $y)) (f64x2.mul (local.get $ha1) (local.get $z)))
              (local.get $h2)))
          (local.set $h2 (f64x2.sub (f64x2.mul (local.get $hb2) (local.get $y)) (f64x2.mul (local.get $ha2) (local.get $z))))
          ;; sum += zl * zl + zr * zr
          (local.set $zz (f64x2.mul (local.get $z) (local.get $z)))
          (local.set $sum
            (f64.add (local.get $sum)
              (f64.add (f64x2.extract_lane 0 (local.get $zz)) (f64x2.extract_lane 1 (local.get $zz)))))
          (local.set $pl (i32.add (local.get $pl) (i32.const 4)))
          (local.set $pr (i32.add (local.get $pr) (i32.const 4)))
          (br_if $frame (i32.lt_u (local.get $pl) (local.get $stop))))
        (f64.store offset=0 (local.get $out) (local.get $sum))
        (f64.store offset=8 (local.get $out) (local.get $max))
        (local.set $out (i32.add (local.get $out) (i32.const 16)))
        (br $block)))
    (v128.store offset=0 (local.get $st) (call $settle (local.get $s1) (local.get $flush)))
    (v128.store offset=16 (local.get $st) (call $settle (local.get $s2) (local.get $flush)))
    (v128.store offset=32 (local.get $st) (call $settle (local.get $h1) (local.get $flush)))
    (v128.store offset=48 (local.get $st) (call $settle (local.get $h2) (local.get $flush))))
;; K-weighting as above over n frames, adding zl^2 and zr^2 to the running sums at $out (an f64x2 of
  ;; (left, right), read first and written back, so a long span can come in chunks): LoudnessMeter's
  ;; #filterAndSquarePair (loudness.ts), whose two sums are two lanes here.
  (func (export "kweighted_sums")
    (param $c i32) (param $st i32) (param $pl i32) (param $pr i32) (param $n i32) (param $out i32) (param $flush i32)
    (local $sb0 v128) (local $sb1 v128) (local $sb2 v128) (local $sa1 v128) (local $sa2 v128)
    (local $hb0 v128) (local $hb1 v128) (local $hb2 v128) (local $ha1 v128) (local $ha2 v128)
    (local $s1 v128) (local $s2 v128) (local $h1 v128) (local $h2 v128)
    (local $x v128) (local $y v128) (local $z v128) (local $sum v128) (local $end i32)
    (local.set $sb0 (v128.load offset=0 (local.get $c)))
    (local.set $sb1 (v128.load offset=16 (local.get $c)))
    (local.set $sb2 (v128.load offset=32 (local.get $c)))
    (local.set $sa1 (v128.load offset=48 (local.get $c)))
    (local.set $sa2 (v128.load offset=64 (local.get $c)))
    (local.set $hb0 (v128.load offset=80 (local.get $c)))
    (local.set $hb1 (v128.load offset=96 (local.get $c)))
    (local.set $hb2 (v128.load offset=112 (local.get $c)))
    (local.set $ha1 (v128.load offset=128 (local.get $c)))
    (local.set $ha2 (v128.load offset=144 (local.get $c)))
    (local.set $s1 (v128.load offset=0 (local.get $st)))
    (local.set $s2 (v128.load offset=16 (local.get $st)))
    (local.set $h1 (v128.load offset=32 (local.get $st)))
    (local.set $h2 (v128.load offset=48 (local.get $st)))
    (local.set $sum (v128.load (local.get $out)))
    (local.set $end (i32.add (local.get $pl) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (br_if $done (i32.ge_u (local.get $pl) (local.get $end)))
      (loop $frame
        (local.set $x
          (f64x2.replace_lane 1
            (f64x2.splat (f64.promote_f32 (f32.load (local.get $pl))))
            (f64.promote_f32 (f32.load (local.get $pr)))))
        (local.set $y (f64x2.add (f64x2.mul (local.get $sb0) (local.get $x)) (local.get $s1)))
        (local.set $s1
          (f64x2.add
            (f64x2.sub (f64x2.mul (local.get $sb1) (local.get $x)) (f64x2.mul (local.get $sa1) (local.get $y)))
            (local.get $s2)))
        (local.set $s2 (f64x2.sub (f64x2.mul (local.get $sb2) (local.get $x)) (f64x2.mul (local.get $sa2) (local.get $y))))
        (local.set $z (f64x2.add (f64x2.mul (local.get $hb0) (local.get $y)) (local.get $h1)))
        (local.set $h1
          (f64x2.add
            (f64x2.sub (f64x2.mul (local.get $hb1) (local.get $y)) (f64x2.mul (local.get $ha1) (local.get $z)))
            (local.get $h2)))
        (local.set $h2 (f64x2.sub (f64x2.mul (local.get $hb2) (local.get $y)) (f64x2.mul (local.get $ha2) (local.get $z))))
        (local.set $sum (f64x2.add (local.get $sum) (f64x2.mul (local.get $z) (local.get $z))))
        (local.set $pl (i32.add (local.get $pl) (i32.const 4)))
        (local.set $pr (i32.add (local.get $pr) (i32.const 4)))
        (br_if $frame (i32.lt_u (local.get $pl) (local.get $end)))))
    (v128.store (local.get $out) (local.get $sum))
    (v128.store offset=0 (local.get $st) (call $settle (local.get $s1) (local.get $flush)))
    (v128.store offset=16 (local.get $st) (call $settle (local.get $s2) (local.get $flush)))
    (v128.store offset=32 (local.get $st) (call $settle (local.get $h1) (local.get $flush)))
    (v128.store offset=48 (local.get $st) (call $settle (local.get $h2) (local.get $flush))))
;; True peaks by 4x oversampling: true-peak.ts's interpolatePeaks, the folded 32-tap kernel with the
  ;; parabolic refinement, for input indices [from, from + n) of x ($px points at x[from], the 32 samples
  ;; before it and one after the last are readable), max-accumulated into the f64 array at $po (one value
  ;; per index). Two consecutive indices share one f64x2 for the 64 multiply-adds (each lane adds its terms in
  ;; the JavaScript's order), the per-index tail (phases, maxima, vertices) runs per lane in scalar code.
  ;; `first`: a new call of interpolatePeaks (start one index early to know the two previous grid values and
  ;; clear the best value); otherwise the next chunk of the same call. The largest value written is in $best.
  ;; `grid_miss` is 1 / cos(pi / 8) as the JavaScript computed it.
  (global $y2 (mut f64) (f64.const 0))
  (global $y1 (mut f64) (f64.const 0))
  (global $best (mut f64) (f64.const 0))

  ;; vertex(a, b, c) of true-peak.ts: the peak of the parabola through three grid values, capped.
  (func $vertex (param $a f64) (param $b f64) (param $c f64) (param $gm f64) (result f64)
    (local $s f64) (local $A f64) (local $B f64) (local $C f64) (local $den f64) (local $v f64) (local $cap f64)
    (local.set $s (select (f64.const -1) (f64.const 1) (f64.lt (local.get $b) (f64.const 0))))
    (local.set $A (f64.mul (local.get $a) (local.get $s)))
    (local.set $B (f64.mul (local.get $b) (local.get $s)))
    (local.set $C (f64.mul (local.get $c) (local.get $s)))
    (local.set $den
      (f64.add (f64.sub (local.get $A) (f64.mul (f64.const 2) (local.get $B))) (local.get $C)))
    (if (f64.ge (local.get $den) (f64.const 0)) (then (return (local.get $B))))
    (local.set $v
      (f64.sub (local.get $B)
        (f64.div
          (f64.mul (f64.sub (local.get $C) (local.get $A)) (f64.sub (local.get $C) (local.get $A)))
          (f64.mul (f64.const 8) (local.get $den)))))
    (local.set $cap (f64.mul (local.get $B) (local.get $gm)))
    (select (local.get $v) (local.get $cap) (f64.lt (local.get $v) (local.get $cap))))

  ;; The tail of one index: the four phases' values, the previous two grid values in $y2 $y1; `sample` is
  ;; x[i - 16]; writes to $po when `write`.
  (func $tail (param $p0 f64) (param $p1 f64) (param $p2 f64) (param $p3 f64) (param $sample f64)
    (param $po i32) (param $write i32) (param $gm f64)
    (local $m2 f64) (local $m1 f64) (local $b0 f64) (local $b1 f64) (local $b2 f64) (local $b3 f64)
    (local $v f64) (local $r f64)
    (local.set $m2 (f64.abs (global.get $y2)))
    (local.set $m1 (f64.abs (global.get $y1)))
    (local.set $b0 (f64.abs (local.get $p0)))
    (local.set $b1 (f64.abs (local.get $p1)))
    (local.set $b2 (f64.abs (local.get $p2)))
    (local.set $b3 (f64.abs (local.get $p3)))
    ;; v = b0 > b1 ? b0 : b1; if (b2 > v) v = b2; if (b3 > v) v = b3
    (local.set $v (select (local.get $b0) (local.get $b1) (f64.gt (local.get $b0) (local.get $b1))))
    (if (f64.gt (local.get $b2) (local.get $v)) (then (local.set $v (local.get $b2))))
    (if (f64.gt (local.get $b3) (local.get $v)) (then (local.set $v (local.get $b3))))
    (if (i32.and (f64.ge (local.get $m1) (local.get $m2)) (f64.ge (local.get $m1) (local.get $b0)))
      (then
        (local.set $r (call $vertex (global.get $y2) (global.get $y1) (local.get $p0) (local.get $gm)))
        (if (f64.gt (local.get $r) (local.get $v)) (then (local.set $v (local.get $r))))))
    (if (i32.and (f64.ge (local.get $b0) (local.get $m1)) (f64.ge (local.get $b0) (local.get $b1)))
      (then
        (local.set $r (call $vertex (global.get $y1) (local.get $p0) (local.get $p1) (local.get $gm)))
        (if (f64.gt (local.get $r) (local.get $v)) (then (local.set $v (local.get $r))))))
    (if (i32.and (f64.ge (local.get $b1) (local.get $b0)) (f64.ge (local.get $b1) (local.get $b2)))
      (then
        (local.set $r (call $vertex (local.get $p0) (local.get $p1) (local.get $p2) (local.get $gm)))
        (if (f64.gt (local.get $r) (local.get $v)) (then (local.set $v (local.get $r))))))
    (if (i32.and (f64.ge (local.get $b2) (local.get $b1)) (f64.ge (local.get $b2) (local.get $b3)))
      (then
        (local.set $r (call $vertex (local.get $p1) (local.get $p2) (local.get $p3) (local.get $gm)))
        (if (f64.gt (local.get $r) (local.get $v)) (then (local.set $v (local.get $r))))))
    (global.set $y2 (local.get $p2))
    (global.set $y1 (local.get $p3))
    (if (i32.eqz (local.get $write)) (then (return)))
    (local.set $r (f64.abs (local.get $sample)))
    (if (f64.gt (local.get $r) (local.get $v)) (then (local.set $v (local.get $r))))
    (if (f64.gt (local.get $v) (f64.load (local.get $po))) (then (f64.store (local.get $po) (local.get $v))))
    (if (f64.gt (local.get $v) (global.get $best)) (then (global.set $best (local.get $v)))))

  (func (export "true_peaks") (param $px i32) (param $n i32) (param $po i32) (param $gm f64) (param $first i32)
    (result f64)
    (local $a v128) (local $c v128) (local $u v128) (local $w v128) (local $s03 v128) (local $d03 v128) (local $s12 v128) (local $d12 v128) (local $half v128) (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $q3 v128)
    (local $i i32) (local $p i32)
    (local.set $i (i32.const 0))
    (if (local.get $first)
      (then
        (global.set $y2 (f64.const 0))
        (global.set $y1 (f64.const 0))
        (global.set $best (f64.const 0))
        (local.set $i (i32.const -1))))
    (local.set $half (f64x2.splat (f64.const 0.5)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_s (local.get $i) (local.get $n)))
        ;; $p: the address of x[i]; lanes are indices i and i + 1.
        (local.set $p (i32.add (local.get $px) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=124 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $c (f64x2.promote_low_f32x4 (v128.load64_zero offset=0 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $u (f64x2.add (local.get $a) (local.get $c)))
        (local.set $w (f64x2.sub (local.get $a) (local.get $c)))
        (local.set $s03 (f64x2.mul (f64x2.splat (f64.const -0.00015454926911124853)) (local.get $u)))
        (local.set $d03 (f64x2.mul (f64x2.splat (f64.const 0.000061474694820996801)) (local.get $w)))
        (local.set $s12 (f64x2.mul (f64x2.splat (f64.const -0.00035490313718886812)) (local.get $u)))
        (local.set $d12 (f64x2.mul (f64x2.splat (f64.const 0.000049094269675082518)) (local.get $w)))
        (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=120 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $c (f64x2.promote_low_f32x4 (v128.load64_zero offset=4 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $u (f64x2.add (local.get $a) (local.get $c)))
        (local.set $w (f64x2.sub (local.get $a) (local.get $c)))
        (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (f64x2.splat (f64.const 0.00039311537392327806)) (local.get $u))))
        (local.set $d03 (f64x2.add (local.get $d03) (f64x2.mul (f64x2.splat (f64.const -0.00011936380034681309)) (local.get $w))))
        (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (f64x2.splat (f64.const 0.00092031179078595467)) (local.get $u))))
        (local.set $d12 (f64x2.add (local.get $d12) (f64x2.mul (f64x2.splat (f64.const -0.000095557202918804501)) (local.get $w))))
        (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=116 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $c (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $u (f64x2.add (local.get $a) (local.get $c)))
        (local.set $w (f64x2.sub (local.get $a) (local.get $c)))
        (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (f64x2.splat (f64.const -0.00082545014416084519)) (local.get $u))))
        (local.set $d03 (f64x2.add (local.get $d03) (f64x2.mul (f64x2.splat (f64.const 0.00020737216638897339)) (local.get $w))))
        (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (f64x2.splat (f64.const -0.0019503899522072842)) (local.get $u))))
        (local.set $d12 (f64x2.add (local.get $d12) (f64x2.mul (f64x2.splat (f64.const 0.00016624636600108273)) (local.get $w))))
        (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=112 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $c (f64x2.promote_low_f32x4 (v128.load64_zero offset=12 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $u (f64x2.add (local.get $a) (local.get $c)))
        (local.set $w (f64x2.sub (local.get $a) (local.get $c)))
        (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (f64x2.splat (f64.const 0.0015427565985949828)) (local.get $u))))
        (local.set $d03 (f64x2.add (local.get $d03) (f64x2.mul (f64x2.splat (f64.const -0.000333721261085041)) (local.get $w))))
        (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (f64x2.splat (f64.const 0.0036650106710171865)) (local.get $u))))
        (local.set $d12 (f64x2.add (local.get $d12) (f64x2.mul (f64x2.splat (f64.const -0.00026777662610596347)) (local.get $w))))
        (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=108 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $c (f64x2.promote_low_f32x4 (v128.load64_zero offset=16 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $u (f64x2.add (local.get $a) (local.get $c)))
        (local.set $w (f64x2.sub (local.get $a) (local.get $c)))
        (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (f64x2.splat (f64.const -0.0026593492449231131)) (local.get $u))))
        (local.set $d03 (f64x2.add (local.get $d03) (f64x2.mul (f64x2.splat (f64.const 0.00050754461643226891)) (local.get $w))))
        (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (f64x2.splat (f64.const -0.0063397254658325106)) (local.get $u))))
        (local.set $d12 (f64x2.add (local.get $d12) (f64x2.mul (f64x2.splat (f64.const 0.00040748907702444501)) (local.get $w))))
        (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=104 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $c (f64x2.promote_low_f32x4 (v128.load64_zero offset=20 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $u (f64x2.add (local.get $a) (local.get $c)))
        (local.set $w (f64x2.sub (local.get $a) (local.get $c)))
        (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (f64x2.splat (f64.const 0.0043158237171350058)) (local.get $u))))
        (local.set $d03 (f64x2.add (local.get $d03) (f64x2.mul (f64x2.splat (f64.const -0.00073948975482175162)) (local.get $w))))
        (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (f64x2.splat (f64.const 0.010313145675477899)) (local.get $u))))
        (local.set $d12 (f64x2.add (local.get $d12) (f64x2.mul (f64x2.splat (f64.const -0.00059392768990005739)) (local.get $w))))
        (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=100 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $c (f64x2.promote_low_f32x4 (v128.load64_zero offset=24 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $u (f64x2.add (local.get $a) (local.get $c)))
        (local.set $w (f64x2.sub (local.get $a) (local.get $c)))
        (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (f64x2.splat (f64.const -0.0066850594866447724)) (local.get $u))))
        (local.set $d03 (f64x2.add (local.get $d03) (f64x2.mul (f64x2.splat (f64.const 0.001043288044082118)) (local.get $w))))
        (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (f64x2.splat (f64.const -0.016000902396900767)) (local.get $u))))
        (local.set $d12 (f64x2.add (local.get $d12) (f64x2.mul (f64x2.splat (f64.const 0.00083808778311819914)) (local.get $w))))
        (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=96 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $c (f64x2.promote_low_f32x4 (v128.load64_zero offset=28 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $u (f64x2.add (local.get $a) (local.get $c)))
        (local.set $w (f64x2.sub (local.get $a) (local.get $c)))
        (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (f64x2.splat (f64.const 0.0099848316166267041)) (local.get $u))))
        (local.set $d03 (f64x2.add (local.get $d03) (f64x2.mul (f64x2.splat (f64.const -0.0014392371276448082)) (local.get $w))))
        (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (f64x2.splat (f64.const 0.023925030110844951)) (local.get $u))))
        (local.set $d12 (f64x2.add (local.get $d12) (f64x2.mul (f64x2.splat (f64.const -0.0011561867445959908)) (local.get $w))))
        (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=92 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $c (f64x2.promote_low_f32x4 (v128.load64_zero offset=32 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $u (f64x2.add (local.get $a) (local.get $c)))
        (local.set $w (f64x2.sub (local.get $a) (local.get $c)))
        (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (f64x2.splat (f64.const -0.014504707058085251)) (local.get $u))))
        (local.set $d03 (f64x2.add (local.get $d03) (f64x2.mul (f64x2.splat (f64.const 0.0019616488673707515)) (local.get $w))))
        (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (f64x2.splat (f64.const -0.034776624192187022)) (local.get $u))))
        (local.set $d12 (f64x2.add (local.get $d12) (f64x2.mul (f64x2.splat (f64.const 0.001575581822572017)) (local.get $w))))
        (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=88 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $c (f64x2.promote_low_f32x4 (v128.load64_zero offset=36 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $u (f64x2.add (local.get $a) (local.get $c)))
        (local.set $w (f64x2.sub (local.get $a) (local.get $c)))
        (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (f64x2.splat (f64.const 0.020664030644336737)) (local.get $u))))
        (local.set $d03 (f64x2.add (local.get $d03) (f64x2.mul (f64x2.splat (f64.const -0.002675272396505923)) (local.get $w))))
        (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (f64x2.splat (f64.const 0.049550450707236599)) (local.get $u))))
        (local.set $d12 (f64x2.add (local.get $d12) (f64x2.mul (f64x2.splat (f64.const -0.0021477819670029132)) (local.get $w))))
        (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=84 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $c (f64x2.promote_low_f32x4 (v128.load64_zero offset=40 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $u (f64x2.add (local.get $a) (local.get $c)))
        (local.set $w (f64x2.sub (local.get $a) (local.get $c)))
        (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (f64x2.splat (f64.const -0.029142016786144954)) (local.get $u))))
        (local.set $d03 (f64x2.add (local.get $d03) (f64x2.mul (f64x2.splat (f64.const 0.0037145595515628588)) (local.get $w))))
        (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (f64x2.splat (f64.const -0.069844565319321927)) (local.get $u))))
        (local.set $d12 (f64x2.add (local.get $d12) (f64x2.mul (f64x2.splat (f64.const 0.0029794131901634061)) (local.get $w))))
        (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=80 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $c (f64x2.promote_low_f32x4 (v128.load64_zero offset=44 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $u (f64x2.add (local.get $a) (local.get $c)))
        (local.set $w (f64x2.sub (local.get $a) (local.get $c)))
        (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (f64x2.splat (f64.const 0.041195244870748576)) (local.get $u))))
        (local.set $d03 (f64x2.add (local.get $d03) (f64x2.mul (f64x2.splat (f64.const -0.0053904468775742113)) (local.get $w))))
        (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (f64x2.splat (f64.const 0.098581163029218433)) (local.get $u))))
        (local.set $d12 (f64x2.add (local.get $d12) (f64x2.mul (f64x2.splat (f64.const -0.0043158057270924546)) (local.get $w))))
        (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=76 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $c (f64x2.promote_low_f32x4 (v128.load64_zero offset=48 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $u (f64x2.add (local.get $a) (local.get $c)))
        (local.set $w (f64x2.sub (local.get $a) (local.get $c)))
        (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (f64x2.splat (f64.const -0.05955396057417485)) (local.get $u))))
        (local.set $d03 (f64x2.add (local.get $d03) (f64x2.mul (f64x2.splat (f64.const 0.008541068153027017)) (local.get $w))))
        (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (f64x2.splat (f64.const -0.14199033099639419)) (local.get $u))))
        (local.set $d12 (f64x2.add (local.get $d12) (f64x2.mul (f64x2.splat (f64.const 0.0068120580336841763)) (local.get $w))))
        (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=72 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $c (f64x2.promote_low_f32x4 (v128.load64_zero offset=52 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $u (f64x2.add (local.get $a) (local.get $c)))
        (local.set $w (f64x2.sub (local.get $a) (local.get $c)))
        (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (f64x2.splat (f64.const 0.091654681533809762)) (local.get $u))))
        (local.set $d03 (f64x2.add (local.get $d03) (f64x2.mul (f64x2.splat (f64.const -0.016072437278478999)) (local.get $w))))
        (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (f64x2.splat (f64.const 0.216415629260616)) (local.get $u))))
        (local.set $d12 (f64x2.add (local.get $d12) (f64x2.mul (f64x2.splat (f64.const -0.01269398218538817)) (local.get $w))))
        (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=68 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $c (f64x2.promote_low_f32x4 (v128.load64_zero offset=56 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $u (f64x2.add (local.get $a) (local.get $c)))
        (local.set $w (f64x2.sub (local.get $a) (local.get $c)))
        (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (f64x2.splat (f64.const -0.16830829185052262)) (local.get $u))))
        (local.set $d03 (f64x2.add (local.get $d03) (f64x2.mul (f64x2.splat (f64.const 0.04451658635050449)) (local.get $w))))
        (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (f64x2.splat (f64.const -0.38292356757212886)) (local.get $u))))
        (local.set $d12 (f64x2.add (local.get $d12) (f64x2.mul (f64x2.splat (f64.const 0.033876473774562738)) (local.get $w))))
        (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero offset=64 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $c (f64x2.promote_low_f32x4 (v128.load64_zero offset=60 (i32.sub (local.get $p) (i32.const 124)))))
        (local.set $u (f64x2.add (local.get $a) (local.get $c)))
        (local.set $w (f64x2.sub (local.get $a) (local.get $c)))
        (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (f64x2.splat (f64.const 1.1120829000585926)) (local.get $u))))
        (local.set $d03 (f64x2.add (local.get $d03) (f64x2.mul (f64x2.splat (f64.const -0.83656119005125018)) (local.get $w))))
        (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (f64x2.splat (f64.const 1.2508102677869644)) (local.get $u))))
        (local.set $d12 (f64x2.add (local.get $d12) (f64x2.mul (f64x2.splat (f64.const -0.31471673423967544)) (local.get $w))))
        ;; p0 = (s03 + d03) / 2, p1 = (s12 + d12) / 2, p2 = (s12 - d12) / 2, p3 = (s03 - d03) / 2
        (local.set $q0 (f64x2.mul (f64x2.add (local.get $s03) (local.get $d03)) (local.get $half)))
        (local.set $q1 (f64x2.mul (f64x2.add (local.get $s12) (local.get $d12)) (local.get $half)))
        (local.set $q2 (f64x2.mul (f64x2.sub (local.get $s12) (local.get $d12)) (local.get $half)))
        (local.set $q3 (f64x2.mul (f64x2.sub (local.get $s03) (local.get $d03)) (local.get $half)))
        (call $tail
          (f64x2.extract_lane 0 (local.get $q0)) (f64x2.extract_lane 0 (local.get $q1))
          (f64x2.extract_lane 0 (local.get $q2)) (f64x2.extract_lane 0 (local.get $q3))
          (f64.promote_f32 (f32.load offset=0 (i32.sub (local.get $p) (i32.const 64))))
          (i32.add (local.get $po) (i32.shl (local.get $i) (i32.const 3)))
          (i32.ge_s (local.get $i) (i32.const 0))
          (local.get $gm))
        (br_if $done (i32.ge_s (i32.add (local.get $i) (i32.const 1)) (local.get $n)))
        (call $tail
          (f64x2.extract_lane 1 (local.get $q0)) (f64x2.extract_lane 1 (local.get $q1))
          (f64x2.extract_lane 1 (local.get $q2)) (f64x2.extract_lane 1 (local.get $q3))
          (f64.promote_f32 (f32.load offset=4 (i32.sub (local.get $p) (i32.const 64))))
          (i32.add (local.get $po) (i32.shl (i32.add (local.get $i) (i32.const 1)) (i32.const 3)))
          (i32.ge_s (i32.add (local.get $i) (i32.const 1)) (i32.const 0))
          (local.get $gm))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $next)))
    (global.get $best))
)
