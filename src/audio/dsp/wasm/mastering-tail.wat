;; The mastering chain's back end after the bands (MasteringProcessor.back, decision 315) in one pass of
;; WebAssembly SIMD, left and right in the two lanes of an f64x2: [the sum of the three compressed bands] ->
;; shelves and presence peak (three biquad sections) -> [width with the bass kept mono: the side through its
;; LR4 high-pass and low-pass side by side in the two lanes, then mid/side back to left/right]. Each step
;; does the JavaScript's operations in its order, and rounds to float32 where the JavaScript stores a sample
;; in a buffer (the band sum, each section's output, the side, the side's two filters), so the output is
;; bit for bit that of multiband-compressor.ts's combine, BiquadCascade.processStereo and MonoBassWidth.
;; What it saves: the block is read and written once instead of about nine times, and the three filters'
;; recursions (independent of each other) overlap in one loop instead of each waiting on its own latency.
;;
;; The memory is the band compressor's (band-compressor.wat, decision 321), imported: its compress3 leaves
;; the three compressed bands in the very buffers this pass sums, so a block's bands are not copied out of
;; one module and into the other.
;; Layout, chosen by the caller (mastering-tail.ts):
;;   1024: six float32 buffers of 4096 frames (16384 bytes each): left (the low band's left), right (the low
;;         band's right), the mid band's left and right, the high band's left and right (band-compressor.wat's
;;         compress3 buffers a, b and c). The output is written over the first two.
;;  99328: the EQ's coefficients, 3 sections x (b0 b1 b2 a1 a2), each an f64x2 with the value twice (below the
;;         buffers lies the band compressor's state, so this pass keeps its own above them);
;;  99568: the EQ's state, 3 sections x (s1, s2), each an f64x2 of (left, right);
;;  99664: the side filters' coefficients, 2 sections, each an f64x2 of (high-pass, low-pass);
;;  99824: their state, 2 sections x (s1, s2), each an f64x2 of (high-pass, low-pass);
;;  99888: (width, -width).
;; Assembled by scripts/build-wasm.mjs into mastering-tail.wasm.ts.
(module
  (import "band" "memory" (memory 2))
  (export "memory" (memory 0))

  ;; Decaying state under 1e-25 becomes 0 when `flush` is set (the JS does it at the end of every call).
  (func $settle (param $v v128) (param $flush i32) (result v128)
    (if (result v128) (local.get $flush)
      (then
        (v128.andnot (local.get $v)
          (f64x2.lt (f64x2.abs (local.get $v)) (f64x2.splat (f64.const 1e-25)))))
      (else (local.get $v))))

  ;; n frames; `combine`: sum the three bands first (else the input is in the first two buffers); `mono`:
  ;; the width with mono bass (else the EQ's output is stored as it is); `rescue`: the side's low band goes
  ;; into the mid (MonoBassWidth's bassFromSide).
  (func (export "tail") (param $n i32) (param $combine i32) (param $mono i32) (param $rescue i32) (param $flush i32)
    (local $i i32) (local $end i32)
    (local $s1 v128) (local $s2 v128) (local $t1 v128) (local $t2 v128) (local $u1 v128) (local $u2 v128)
    (local $p1 v128) (local $p2 v128) (local $q1 v128) (local $q2 v128)
    (local $x v128) (local $y v128) (local $f v128) (local $e v128) (local $swap v128) (local $side v128)
    (local $mid v128) (local $g v128) (local $keep v128) (local $wv v128) (local $prev v128)
    (local.set $s1 (v128.load offset=99568 (i32.const 0)))
    (local.set $s2 (v128.load offset=99584 (i32.const 0)))
    (local.set $t1 (v128.load offset=99600 (i32.const 0)))
    (local.set $t2 (v128.load offset=99616 (i32.const 0)))
    (local.set $u1 (v128.load offset=99632 (i32.const 0)))
    (local.set $u2 (v128.load offset=99648 (i32.const 0)))
    (local.set $p1 (v128.load offset=99824 (i32.const 0)))
    (local.set $p2 (v128.load offset=99840 (i32.const 0)))
    (local.set $q1 (v128.load offset=99856 (i32.const 0)))
    (local.set $q2 (v128.load offset=99872 (i32.const 0)))
    (local.set $wv (v128.load offset=99888 (i32.const 0)))
    ;; All ones when rescuing: `and` with it keeps the low band, with zero gives the JavaScript's `+ 0`.
    (local.set $keep (i64x2.splat (i64.extend_i32_u (i32.ne (local.get $rescue) (i32.const 0)))))
    (local.set $keep (i64x2.neg (local.get $keep)))
    (local.set $end (i32.shl (local.get $n) (i32.const 2)))
    ;; Software-pipelined a sample apart: an iteration runs the sum and the EQ on frame i and the width on
    ;; frame i - 1 (the EQ's output of the iteration before), two dependency chains the CPU overlaps instead
    ;; of one twice as long. So the loop runs once more than there are frames, the last time without the EQ.
    (loop $next
      (if (i32.lt_u (local.get $i) (local.get $end))
        (then
        (local.set $x
          (f64x2.replace_lane 1
            (f64x2.splat (f64.promote_f32 (f32.load offset=1024 (local.get $i))))
            (f64.promote_f32 (f32.load offset=17408 (local.get $i)))))
        (if (local.get $combine)
          (then
            ;; combine: out = low + mid + high, in that order, stored as float32.
            (local.set $x
              (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (f64x2.add
                  (f64x2.add
                    (local.get $x)
                    (f64x2.replace_lane 1
                      (f64x2.splat (f64.promote_f32 (f32.load offset=33792 (local.get $i))))
                      (f64.promote_f32 (f32.load offset=50176 (local.get $i)))))
                  (f64x2.replace_lane 1
                    (f64x2.splat (f64.promote_f32 (f32.load offset=66560 (local.get $i))))
                    (f64.promote_f32 (f32.load offset=82944 (local.get $i))))))))))
        ;; The three EQ sections: y = b0 x + s1; s1 = b1 x - a1 y + s2; s2 = b2 x - a2 y; rounded between.
        (local.set $y (f64x2.add (f64x2.mul (v128.load offset=99328 (i32.const 0)) (local.get $x)) (local.get $s1)))
        (local.set $s1
          (f64x2.add
            (f64x2.sub
              (f64x2.mul (v128.load offset=99344 (i32.const 0)) (local.get $x))
              (f64x2.mul (v128.load offset=99376 (i32.const 0)) (local.get $y)))
            (local.get $s2)))
        (local.set $s2
          (f64x2.sub
            (f64x2.mul (v128.load offset=99360 (i32.const 0)) (local.get $x))
            (f64x2.mul (v128.load offset=99392 (i32.const 0)) (local.get $y))))
        (local.set $f (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $y))))
        (local.set $y (f64x2.add (f64x2.mul (v128.load offset=99408 (i32.const 0)) (local.get $f)) (local.get $t1)))
        (local.set $t1
          (f64x2.add
            (f64x2.sub
              (f64x2.mul (v128.load offset=99424 (i32.const 0)) (local.get $f))
              (f64x2.mul (v128.load offset=99456 (i32.const 0)) (local.get $y)))
            (local.get $t2)))
        (local.set $t2
          (f64x2.sub
            (f64x2.mul (v128.load offset=99440 (i32.const 0)) (local.get $f))
            (f64x2.mul (v128.load offset=99472 (i32.const 0)) (local.get $y))))
        (local.set $f (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $y))))
        (local.set $y (f64x2.add (f64x2.mul (v128.load offset=99488 (i32.const 0)) (local.get $f)) (local.get $u1)))
        (local.set $u1
          (f64x2.add
            (f64x2.sub
              (f64x2.mul (v128.load offset=99504 (i32.const 0)) (local.get $f))
              (f64x2.mul (v128.load offset=99536 (i32.const 0)) (local.get $y)))
            (local.get $u2)))
        (local.set $u2
          (f64x2.sub
            (f64x2.mul (v128.load offset=99520 (i32.const 0)) (local.get $f))
            (f64x2.mul (v128.load offset=99552 (i32.const 0)) (local.get $y))))
        (local.set $e (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $y))))
        (if (i32.eqz (local.get $mono))
          (then
            (f32.store offset=1024 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 0 (local.get $e))))
            (f32.store offset=17408 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 1 (local.get $e))))))))
      (if (i32.and (local.get $mono) (i32.ne (local.get $i) (i32.const 0)))
        (then
            ;; (right, left): prev - swap holds left - right in lane 0, prev + swap left + right in both.
            (local.set $swap
              (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $prev) (local.get $prev)))
            ;; side = (left - right) * 0.5 as the side buffer holds it, in both lanes.
            (local.set $side
              (f64x2.splat
                (f64.promote_f32
                  (f32.demote_f64
                    (f64x2.extract_lane 0
                      (f64x2.mul (f64x2.sub (local.get $prev) (local.get $swap)) (f64x2.splat (f64.const 0.5))))))))
            ;; The side's high-pass (lane 0) and low-pass (lane 1), two sections each.
            (local.set $y
              (f64x2.add (f64x2.mul (v128.load offset=99664 (i32.const 0)) (local.get $side)) (local.get $p1)))
            (local.set $p1
              (f64x2.add
                (f64x2.sub
                  (f64x2.mul (v128.load offset=99680 (i32.const 0)) (local.get $side))
                  (f64x2.mul (v128.load offset=99712 (i32.const 0)) (local.get $y)))
                (local.get $p2)))
            (local.set $p2
              (f64x2.sub
                (f64x2.mul (v128.load offset=99696 (i32.const 0)) (local.get $side))
                (f64x2.mul (v128.load offset=99728 (i32.const 0)) (local.get $y))))
            (local.set $f (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $y))))
            (local.set $y
              (f64x2.add (f64x2.mul (v128.load offset=99744 (i32.const 0)) (local.get $f)) (local.get $q1)))
            (local.set $q1
              (f64x2.add
                (f64x2.sub
                  (f64x2.mul (v128.load offset=99760 (i32.const 0)) (local.get $f))
                  (f64x2.mul (v128.load offset=99792 (i32.const 0)) (local.get $y)))
                (local.get $q2)))
            (local.set $q2
              (f64x2.sub
                (f64x2.mul (v128.load offset=99776 (i32.const 0)) (local.get $f))
                (f64x2.mul (v128.load offset=99808 (i32.const 0)) (local.get $y))))
            (local.set $g (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $y))))
            ;; mid = (left + right) * 0.5 + (rescue ? low : 0); left = mid + side w, right = mid - side w.
            (local.set $mid
              (f64x2.add
                (f64x2.mul (f64x2.add (local.get $prev) (local.get $swap)) (f64x2.splat (f64.const 0.5)))
                (v128.and
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $g) (local.get $g))
                  (local.get $keep))))
            (local.set $g
              (f64x2.add
                (local.get $mid)
                (f64x2.mul
                  (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 (local.get $g) (local.get $g))
                  (local.get $wv))))
            (f32.store offset=1020 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 0 (local.get $g))))
            (f32.store offset=17404 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 1 (local.get $g))))))
      (local.set $prev (local.get $e))
      (local.set $i (i32.add (local.get $i) (i32.const 4)))
      (br_if $next (i32.le_u (local.get $i) (local.get $end))))
    (v128.store offset=99568 (i32.const 0) (call $settle (local.get $s1) (local.get $flush)))
    (v128.store offset=99584 (i32.const 0) (call $settle (local.get $s2) (local.get $flush)))
    (v128.store offset=99600 (i32.const 0) (call $settle (local.get $t1) (local.get $flush)))
    (v128.store offset=99616 (i32.const 0) (call $settle (local.get $t2) (local.get $flush)))
    (v128.store offset=99632 (i32.const 0) (call $settle (local.get $u1) (local.get $flush)))
    (v128.store offset=99648 (i32.const 0) (call $settle (local.get $u2) (local.get $flush)))
    (v128.store offset=99824 (i32.const 0) (call $settle (local.get $p1) (local.get $flush)))
    (v128.store offset=99840 (i32.const 0) (call $settle (local.get $p2) (local.get $flush)))
    (v128.store offset=99856 (i32.const 0) (call $settle (local.get $q1) (local.get $flush)))
    (v128.store offset=99872 (i32.const 0) (call $settle (local.get $q2) (local.get $flush)))))
