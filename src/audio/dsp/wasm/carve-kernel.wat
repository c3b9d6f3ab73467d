;; The vocal-space carve's per-frame work (vocal-space.ts, decision 311) in WebAssembly SIMD: the four band
;; filters of the beat (left and right in the two lanes of one f64x2) and of the vocal (two bands per f64x2),
;; the eight mean-square envelopes, the linear gain ramps, the cut sum and the subtraction, in one pass over
;; the frames of one control segment. Per lane the operations are the JavaScript's in its order (lane-wise
;; f64 mul, add and sub are exact-rounded, no fused multiply-add; a band signal is rounded to float32 as the
;; JavaScript's scratch buffers round it), so the samples are bit for bit the JavaScript's.
;;
;; Memory layout (carve-kernel.ts writes it):
;;   0    the control values, f64x2 each: vocal envelopes (0, 1) (2, 3), beat envelopes (0, 1) (2, 3), gains
;;        at the segment's start (0, 1) (2, 3), gains at its control point (0, 1) (2, 3);
;;   128  six filters' coefficients, 64 bytes each: b0 b2 a1 a2 as f64x2 (only band-passes: b1 is 0 and
;;        b2 is -b0, see carve-kernel.ts; b2 is not read); filters 0-3 are the beat's bands (the band's value in both lanes), 4 and 5 the
;;        vocal's bands (0, 1) and (2, 3);
;;   512  their state, 32 bytes each: s1 then s2, each an f64x2 (the two lanes' own);
;;   1024 the frames: left, right and the vocal's mono sum, float32, at addresses the caller passes.
(module
  (memory (export "memory") 1)

  (func (export "carve")
    (param $pl i32) (param $pr i32) (param $pv i32) (param $n i32) (param $phase i32) (param $touched i32)
    (param $detect f64) (param $share f64)
    (local $end i32) (local $p i32)
    (local $dt v128) (local $half v128) (local $one v128) (local $zero v128) (local $sh v128)
    (local $ve01 v128) (local $ve23 v128) (local $be01 v128) (local $be23 v128)
    (local $a01 v128) (local $a23 v128) (local $b01 v128) (local $b23 v128)
    (local $s10 v128) (local $s20 v128) (local $s11 v128) (local $s21 v128)
    (local $s12 v128) (local $s22 v128) (local $s13 v128) (local $s23 v128)
    (local $s14 v128) (local $s24 v128) (local $s15 v128) (local $s25 v128)
    (local $x v128) (local $xv v128) (local $bx v128) (local $d01 v128) (local $d23 v128)
    (local $y0 v128) (local $y1 v128) (local $y2 v128) (local $y3 v128) (local $w01 v128) (local $w23 v128)
    (local $y v128) (local $m v128) (local $g01 v128) (local $g23 v128) (local $t v128) (local $cut v128)
    (local.set $dt (f64x2.splat (local.get $detect)))
    (local.set $sh (f64x2.splat (local.get $share)))
    (local.set $half (f64x2.splat (f64.const 0.5)))
    (local.set $one (f64x2.splat (f64.const 1)))
    (local.set $zero (f64x2.splat (f64.const 0)))
    (local.set $ve01 (v128.load offset=0 (i32.const 0)))
    (local.set $ve23 (v128.load offset=16 (i32.const 0)))
    (local.set $be01 (v128.load offset=32 (i32.const 0)))
    (local.set $be23 (v128.load offset=48 (i32.const 0)))
    (local.set $a01 (v128.load offset=64 (i32.const 0)))
    (local.set $a23 (v128.load offset=80 (i32.const 0)))
    (local.set $b01 (v128.load offset=96 (i32.const 0)))
    (local.set $b23 (v128.load offset=112 (i32.const 0)))
    (local.set $s10 (v128.load offset=512 (i32.const 0)))
    (local.set $s20 (v128.load offset=528 (i32.const 0)))
    (local.set $s11 (v128.load offset=544 (i32.const 0)))
    (local.set $s21 (v128.load offset=560 (i32.const 0)))
    (local.set $s12 (v128.load offset=576 (i32.const 0)))
    (local.set $s22 (v128.load offset=592 (i32.const 0)))
    (local.set $s13 (v128.load offset=608 (i32.const 0)))
    (local.set $s23 (v128.load offset=624 (i32.const 0)))
    (local.set $s14 (v128.load offset=640 (i32.const 0)))
    (local.set $s24 (v128.load offset=656 (i32.const 0)))
    (local.set $s15 (v128.load offset=672 (i32.const 0)))
    (local.set $s25 (v128.load offset=688 (i32.const 0)))
    ;; The ramps' slopes b - a, as the JavaScript's (b0 - a0) per frame.
    (local.set $d01 (f64x2.sub (local.get $b01) (local.get $a01)))
    (local.set $d23 (f64x2.sub (local.get $b23) (local.get $a23)))
    (local.set $end (i32.add (local.get $pl) (i32.shl (local.get $n) (i32.const 2))))
    (local.set $p (local.get $phase))
    (block $done
      (br_if $done (i32.ge_u (local.get $pl) (local.get $end)))
      (loop $next
        ;; x = (left, right)
        (local.set $x (f64x2.replace_lane 1
          (f64x2.splat (f64.promote_f32 (f32.load (local.get $pl))))
          (f64.promote_f32 (f32.load (local.get $pr)))))
        (local.set $xv (f64x2.splat (f64.promote_f32 (f32.load (local.get $pv)))))
        ;; Each filter: y = b0 x + s1; s1 = s2 - a1 y (b1 x is 0); s2 = b2 x - a2 y with b2 x = -(b0 x)
        ;; exactly (b2 = -b0); then y as float32.
        ;; Beat band 0: x is (left, right).
        (local.set $bx (f64x2.mul (v128.load offset=128 (i32.const 0)) (local.get $x)))
        (local.set $y (f64x2.add (local.get $bx) (local.get $s10)))
        (local.set $s10 (f64x2.sub (local.get $s20) (f64x2.mul (v128.load offset=160 (i32.const 0)) (local.get $y))))
        (local.set $s20 (f64x2.sub (f64x2.neg (local.get $bx))
          (f64x2.mul (v128.load offset=176 (i32.const 0)) (local.get $y))))
        (local.set $y0 (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $y))))
        ;; Beat band 1.
        (local.set $bx (f64x2.mul (v128.load offset=192 (i32.const 0)) (local.get $x)))
        (local.set $y (f64x2.add (local.get $bx) (local.get $s11)))
        (local.set $s11 (f64x2.sub (local.get $s21) (f64x2.mul (v128.load offset=224 (i32.const 0)) (local.get $y))))
        (local.set $s21 (f64x2.sub (f64x2.neg (local.get $bx))
          (f64x2.mul (v128.load offset=240 (i32.const 0)) (local.get $y))))
        (local.set $y1 (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $y))))
        ;; Beat band 2.
        (local.set $bx (f64x2.mul (v128.load offset=256 (i32.const 0)) (local.get $x)))
        (local.set $y (f64x2.add (local.get $bx) (local.get $s12)))
        (local.set $s12 (f64x2.sub (local.get $s22) (f64x2.mul (v128.load offset=288 (i32.const 0)) (local.get $y))))
        (local.set $s22 (f64x2.sub (f64x2.neg (local.get $bx))
          (f64x2.mul (v128.load offset=304 (i32.const 0)) (local.get $y))))
        (local.set $y2 (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $y))))
        ;; Beat band 3.
        (local.set $bx (f64x2.mul (v128.load offset=320 (i32.const 0)) (local.get $x)))
        (local.set $y (f64x2.add (local.get $bx) (local.get $s13)))
        (local.set $s13 (f64x2.sub (local.get $s23) (f64x2.mul (v128.load offset=352 (i32.const 0)) (local.get $y))))
        (local.set $s23 (f64x2.sub (f64x2.neg (local.get $bx))
          (f64x2.mul (v128.load offset=368 (i32.const 0)) (local.get $y))))
        (local.set $y3 (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $y))))
        ;; The vocal's bands 0 and 1, then 2 and 3 (x is the mono sum in both lanes).
        (local.set $bx (f64x2.mul (v128.load offset=384 (i32.const 0)) (local.get $xv)))
        (local.set $y (f64x2.add (local.get $bx) (local.get $s14)))
        (local.set $s14 (f64x2.sub (local.get $s24) (f64x2.mul (v128.load offset=416 (i32.const 0)) (local.get $y))))
        (local.set $s24 (f64x2.sub (f64x2.neg (local.get $bx))
          (f64x2.mul (v128.load offset=432 (i32.const 0)) (local.get $y))))
        (local.set $w01 (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $y))))
        (local.set $bx (f64x2.mul (v128.load offset=448 (i32.const 0)) (local.get $xv)))
        (local.set $y (f64x2.add (local.get $bx) (local.get $s15)))
        (local.set $s15 (f64x2.sub (local.get $s25) (f64x2.mul (v128.load offset=480 (i32.const 0)) (local.get $y))))
        (local.set $s25 (f64x2.sub (f64x2.neg (local.get $bx))
          (f64x2.mul (v128.load offset=496 (i32.const 0)) (local.get $y))))
        (local.set $w23 (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $y))))
        ;; ve += detect (w w - ve)
        (local.set $ve01 (f64x2.add (local.get $ve01) (f64x2.mul (local.get $dt)
          (f64x2.sub (f64x2.mul (local.get $w01) (local.get $w01)) (local.get $ve01)))))
        (local.set $ve23 (f64x2.add (local.get $ve23) (f64x2.mul (local.get $dt)
          (f64x2.sub (f64x2.mul (local.get $w23) (local.get $w23)) (local.get $ve23)))))
        ;; m = 0.5 (l + r) of bands (0, 1) and (2, 3); be += detect (m m - be)
        (local.set $m (f64x2.mul (local.get $half) (f64x2.add
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $y0) (local.get $y1))
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $y0) (local.get $y1)))))
        (local.set $be01 (f64x2.add (local.get $be01) (f64x2.mul (local.get $dt)
          (f64x2.sub (f64x2.mul (local.get $m) (local.get $m)) (local.get $be01)))))
        (local.set $m (f64x2.mul (local.get $half) (f64x2.add
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $y2) (local.get $y3))
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $y2) (local.get $y3)))))
        (local.set $be23 (f64x2.add (local.get $be23) (f64x2.mul (local.get $dt)
          (f64x2.sub (f64x2.mul (local.get $m) (local.get $m)) (local.get $be23)))))
        (if (local.get $touched)
          (then
            ;; The ramp lands exactly on the control point's gains at its last frame (p = 31); before, it
            ;; is a + (b - a) t with t = (p + 1) / 32 (a + 0 t is a exactly where a = b).
            (if (i32.eq (local.get $p) (i32.const 31))
              (then
                (local.set $g01 (local.get $b01))
                (local.set $g23 (local.get $b23)))
              (else
                ;; (p + 1) / 32 is exactly (p + 1) * 0.03125
                (local.set $t (f64x2.splat (f64.mul
                  (f64.convert_i32_s (i32.add (local.get $p) (i32.const 1))) (f64.const 0.03125))))
                (local.set $g01 (f64x2.add (local.get $a01) (f64x2.mul (local.get $d01) (local.get $t))))
                (local.set $g23 (f64x2.add (local.get $a23) (f64x2.mul (local.get $d23) (local.get $t))))))
            (local.set $g01 (f64x2.sub (local.get $one) (local.get $g01)))
            (local.set $g23 (f64x2.sub (local.get $one) (local.get $g23)))
            ;; cut (left, right) = 0 + (1 - g0) band0 + (1 - g1) band1 + (1 - g2) band2 + (1 - g3) band3
            (local.set $cut (f64x2.add (local.get $zero) (f64x2.mul
              (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 (local.get $g01) (local.get $g01)) (local.get $y0))))
            (local.set $cut (f64x2.add (local.get $cut) (f64x2.mul
              (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $g01) (local.get $g01))
              (local.get $y1))))
            (local.set $cut (f64x2.add (local.get $cut) (f64x2.mul
              (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 (local.get $g23) (local.get $g23)) (local.get $y2))))
            (local.set $cut (f64x2.add (local.get $cut) (f64x2.mul
              (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $g23) (local.get $g23))
              (local.get $y3))))
            ;; (left, right) - share cut, as float32
            (local.set $y (f64x2.sub
              (local.get $x)
              (f64x2.mul (local.get $sh) (local.get $cut))))
            (f32.store (local.get $pl) (f32.demote_f64 (f64x2.extract_lane 0 (local.get $y))))
            (f32.store (local.get $pr) (f32.demote_f64 (f64x2.extract_lane 1 (local.get $y))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (local.set $pl (i32.add (local.get $pl) (i32.const 4)))
        (local.set $pr (i32.add (local.get $pr) (i32.const 4)))
        (local.set $pv (i32.add (local.get $pv) (i32.const 4)))
        (br_if $next (i32.lt_u (local.get $pl) (local.get $end)))))
    (v128.store offset=0 (i32.const 0) (local.get $ve01))
    (v128.store offset=16 (i32.const 0) (local.get $ve23))
    (v128.store offset=32 (i32.const 0) (local.get $be01))
    (v128.store offset=48 (i32.const 0) (local.get $be23))
    (v128.store offset=512 (i32.const 0) (local.get $s10))
    (v128.store offset=528 (i32.const 0) (local.get $s20))
    (v128.store offset=544 (i32.const 0) (local.get $s11))
    (v128.store offset=560 (i32.const 0) (local.get $s21))
    (v128.store offset=576 (i32.const 0) (local.get $s12))
    (v128.store offset=592 (i32.const 0) (local.get $s22))
    (v128.store offset=608 (i32.const 0) (local.get $s13))
    (v128.store offset=624 (i32.const 0) (local.get $s23))
    (v128.store offset=640 (i32.const 0) (local.get $s14))
    (v128.store offset=656 (i32.const 0) (local.get $s24))
    (v128.store offset=672 (i32.const 0) (local.get $s15))
    (v128.store offset=688 (i32.const 0) (local.get $s25))))
