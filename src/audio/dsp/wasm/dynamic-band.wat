;; DynamicBand's band-pass and envelope (vocal/dynamic-band.ts, decision 313) over a span of samples, bit for
;; bit the JavaScript loop's: the band (rounded to float32 as the JS stores it) and the envelope after each
;; 16-sample control block. The gain never feeds back into the filter or the envelope, so the whole span is
;; filtered first and the control points (logarithms and powers, left to the JS) follow. The envelope's step
;; is taken with both rates at once, and the one the sign of d asks for kept by a bit mask: no branch (the
;; sign flips twice a period of the band), and the chain from one envelope to the next is a subtraction, a
;; multiplication, a select and an addition. The envelope is held in both lanes of a v128, the same value.
;;
;; `ramp` then applies the control points' gains to the span in place: x - (1 - g) band, g going linearly
;; from one point's gain to the next over each block, in the JS's operations and order.
;;
;; Layout, chosen by the caller (dynamic-band-kernel.ts):
;;   coefficients at c: b0 b1 b2 a1 a2, then the release and attack rates (f64 each, 56 bytes);
;;   state at st: x1 x2 y1 y2 env (f64 each), read and written back;
;;   samples at p (n float32), the band written at out (n float32), the envelope after each control block
;;   (the last one possibly short) at envOut (f64 each); the gains at gains (f64 each: the gain before the
;;   span, then after each control block).
;; Assembled by scripts/build-wasm.mjs into dynamic-band.wasm.ts.
(module
  (memory (export "memory") 2)

  (func (export "band_envelope")
    (param $c i32) (param $st i32) (param $p i32) (param $n i32) (param $out i32) (param $envOut i32)
    (local $b0 f64) (local $b1 f64) (local $b2 f64) (local $a1 f64) (local $a2 f64)
    (local $x1 f64) (local $x2 f64) (local $y1 f64) (local $y2 f64) (local $env f64)
    (local $v f64) (local $y f64) (local $i i32)
    (local $release v128) (local $attack v128) (local $e v128) (local $d v128)
    (local.set $b0 (f64.load offset=0 (local.get $c)))
    (local.set $b1 (f64.load offset=8 (local.get $c)))
    (local.set $b2 (f64.load offset=16 (local.get $c)))
    (local.set $a1 (f64.load offset=24 (local.get $c)))
    (local.set $a2 (f64.load offset=32 (local.get $c)))
    (local.set $release (f64x2.splat (f64.load offset=40 (local.get $c))))
    (local.set $attack (f64x2.splat (f64.load offset=48 (local.get $c))))
    (local.set $x1 (f64.load offset=0 (local.get $st)))
    (local.set $x2 (f64.load offset=8 (local.get $st)))
    (local.set $y1 (f64.load offset=16 (local.get $st)))
    (local.set $y2 (f64.load offset=24 (local.get $st)))
    (local.set $e (f64x2.splat (f64.load offset=32 (local.get $st))))
    (block $done
      (br_if $done (i32.eqz (local.get $n)))
      (loop $sample
        (local.set $v (f64.promote_f32 (f32.load (local.get $p))))
        ;; y = b0 v + b1 x1 + b2 x2 - a1 y1 - a2 y2, left to right as the JS evaluates it
        (local.set $y
          (f64.sub
            (f64.sub
              (f64.add
                (f64.add (f64.mul (local.get $b0) (local.get $v)) (f64.mul (local.get $b1) (local.get $x1)))
                (f64.mul (local.get $b2) (local.get $x2)))
              (f64.mul (local.get $a1) (local.get $y1)))
            (f64.mul (local.get $a2) (local.get $y2))))
        (local.set $x2 (local.get $x1))
        (local.set $x1 (local.get $v))
        (local.set $y2 (local.get $y1))
        (local.set $y1 (local.get $y))
        (f32.store (local.get $out) (f32.demote_f64 (local.get $y)))
        ;; env += d * (d > 0 ? attack : release), d = y^2 - env
        (local.set $d (f64x2.sub (f64x2.splat (f64.mul (local.get $y) (local.get $y))) (local.get $e)))
        (local.set $e
          (f64x2.add (local.get $e)
            (v128.bitselect
              (f64x2.mul (local.get $d) (local.get $attack))
              (f64x2.mul (local.get $d) (local.get $release))
              (f64x2.gt (local.get $d) (f64x2.splat (f64.const 0))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        ;; After every 16th sample and the last: the envelope the control point reads.
        (if (i32.or (i32.eqz (i32.and (local.get $i) (i32.const 15))) (i32.eq (local.get $i) (local.get $n)))
          (then
            (f64.store (local.get $envOut) (f64x2.extract_lane 0 (local.get $e)))
            (local.set $envOut (i32.add (local.get $envOut) (i32.const 8)))))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br_if $sample (i32.lt_u (local.get $i) (local.get $n)))))
    (f64.store offset=0 (local.get $st) (local.get $x1))
    (f64.store offset=8 (local.get $st) (local.get $x2))
    (f64.store offset=16 (local.get $st) (local.get $y1))
    (f64.store offset=24 (local.get $st) (local.get $y2))
    (f64.store offset=32 (local.get $st) (f64x2.extract_lane 0 (local.get $e))))
;; Gains over the span's blocks; a block whose gain is 1 at both ends is left as it is.
  (func (export "ramp") (param $p i32) (param $band i32) (param $gains i32) (param $n i32)
    (local $s i32) (local $len i32) (local $k i32) (local $g0 f64) (local $step f64) (local $g f64)
    (local $kv v128) (local $gv v128) (local $q i32) (local $b i32)
    (block $done
      (loop $block
        (br_if $done (i32.ge_u (local.get $s) (local.get $n)))
        (local.set $len (i32.sub (local.get $n) (local.get $s)))
        (if (i32.gt_u (local.get $len) (i32.const 16)) (then (local.set $len (i32.const 16))))
        (local.set $g0 (f64.load (local.get $gains)))
        (local.set $step (f64.sub (f64.load offset=8 (local.get $gains)) (local.get $g0)))
        (local.set $q (i32.add (local.get $p) (i32.shl (local.get $s) (i32.const 2))))
        (local.set $b (i32.add (local.get $band) (i32.shl (local.get $s) (i32.const 2))))
        (if (i32.eqz (i32.and (f64.eq (local.get $g0) (f64.const 1)) (f64.eq (local.get $step) (f64.const 0))))
          (then
            (if (i32.eq (local.get $len) (i32.const 16))
              (then
                ;; g = g0 + step (k + 1) / 16, two samples at a time (division by 16 is the exact scaling
                ;; by 0.0625, as the JS does it)
                (local.set $kv (v128.const f64x2 1 2))
                (local.set $k (i32.const 0))
                (loop $pair
                  (local.set $gv
                    (f64x2.add (f64x2.splat (local.get $g0))
                      (f64x2.mul (f64x2.mul (f64x2.splat (local.get $step)) (local.get $kv))
                        (f64x2.splat (f64.const 0.0625)))))
                  (v128.store64_lane 0 (local.get $q)
                    (f32x4.demote_f64x2_zero
                      (f64x2.sub (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $q)))
                        (f64x2.mul (f64x2.sub (f64x2.splat (f64.const 1)) (local.get $gv))
                          (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $b)))))))
                  (local.set $kv (f64x2.add (local.get $kv) (f64x2.splat (f64.const 2))))
                  (local.set $q (i32.add (local.get $q) (i32.const 8)))
                  (local.set $b (i32.add (local.get $b) (i32.const 8)))
                  (local.set $k (i32.add (local.get $k) (i32.const 2)))
                  (br_if $pair (i32.lt_u (local.get $k) (i32.const 16)))))
              (else
                ;; The short last block: g = g0 + step (k + 1) / len
                (local.set $k (i32.const 0))
                (loop $one
                  (local.set $g
                    (f64.add (local.get $g0)
                      (f64.div
                        (f64.mul (local.get $step) (f64.convert_i32_u (i32.add (local.get $k) (i32.const 1))))
                        (f64.convert_i32_u (local.get $len)))))
                  (f32.store (local.get $q)
                    (f32.demote_f64
                      (f64.sub (f64.promote_f32 (f32.load (local.get $q)))
                        (f64.mul (f64.sub (f64.const 1) (local.get $g))
                          (f64.promote_f32 (f32.load (local.get $b)))))))
                  (local.set $q (i32.add (local.get $q) (i32.const 4)))
                  (local.set $b (i32.add (local.get $b) (i32.const 4)))
                  (local.set $k (i32.add (local.get $k) (i32.const 1)))
                  (br_if $one (i32.lt_u (local.get $k) (local.get $len))))))))
        (local.set $gains (i32.add (local.get $gains) (i32.const 8)))
        (local.set $s (i32.add (local.get $s) (i32.const 16)))
        (br $block))))
)
