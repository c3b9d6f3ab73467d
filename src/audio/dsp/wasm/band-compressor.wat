;; The multiband compressor's bands (compressor.ts, Compressor.process in relative mode on a stereo band) in
;; WebAssembly SIMD, two bands in the two lanes of an f64x2 (decision 316): each band's detector is a chain
;; of dependent operations, and the two chains run side by side in one instruction each. Per lane the
;; operations are the JavaScript loop's in its order (the squares of left then right, the peak of the two,
;; attack or release, the gain's ramp, the product), so the samples are bit for bit the same. The peak
;; uses f64x2.abs and pmax/pmin where the JavaScript compares: they differ only for a -0 input, whose
;; detector step is a zero either way.
;; At a control point (every 16 frames, at absolute positions) the gain target is the JavaScript's own
;; (Compressor #target: logarithm, curve, trace, statistics), through the imported `control`.
;;
;; Layout, chosen by the caller (band-compressor.ts):
;;     0: attack, 16: release (each an f64x2 of the two bands');
;;    32: envelope, 48: gain, 64: step, 80: sum of squares (the bands' state);
;;    96: the envelopes and 112: the squares handed to `control`, 128: the targets it writes back;
;;   1024: four float32 buffers of 4096 frames (16384 bytes each): band a left, right, band b left, right,
;;         compressed in place.
;; Assembled by scripts/build-wasm.mjs into band-compressor.wasm.ts.
(module
  ;; control(offset): the targets for the control point `offset` frames into the call.
  (import "js" "control" (func $control (param i32)))
  (memory (export "memory") 2)

  ;; n frames; `until`: frames before the first control point (0..15).
  (func (export "compress") (param $n i32) (param $until i32)
    (local $i i32) (local $end i32)
    (local $attack v128) (local $release v128) (local $env v128) (local $gain v128) (local $step v128)
    (local $squares v128) (local $l v128) (local $r v128) (local $d v128) (local $zero v128)
    (local.set $attack (v128.load offset=0 (i32.const 0)))
    (local.set $release (v128.load offset=16 (i32.const 0)))
    (local.set $env (v128.load offset=32 (i32.const 0)))
    (local.set $gain (v128.load offset=48 (i32.const 0)))
    (local.set $step (v128.load offset=64 (i32.const 0)))
    (local.set $squares (v128.load offset=80 (i32.const 0)))
    (local.set $zero (f64x2.splat (f64.const 0)))
    (local.set $end (i32.shl (local.get $n) (i32.const 2)))
    (block $done
      (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
      (loop $next
        (if (i32.eqz (local.get $until))
          (then
            ;; Flush a decayed detector before it turns denormal; then the targets, and the ramp to them.
            (local.set $env
              (v128.andnot (local.get $env)
                (f64x2.lt (local.get $env) (f64x2.splat (f64.const 1e-20)))))
            (v128.store offset=96 (i32.const 0) (local.get $env))
            (v128.store offset=112 (i32.const 0) (local.get $squares))
            (call $control (i32.shr_u (local.get $i) (i32.const 2)))
            (local.set $step
              (f64x2.div
                (f64x2.sub (v128.load offset=128 (i32.const 0)) (local.get $gain))
                (f64x2.splat (f64.const 16))))
            ;; The target took the squares (relative mode): they start again from zero.
            (local.set $squares (local.get $zero))
            (local.set $until (i32.const 16))))
        (local.set $l
          (f64x2.replace_lane 1
            (f64x2.splat (f64.promote_f32 (f32.load offset=1024 (local.get $i))))
            (f64.promote_f32 (f32.load offset=33792 (local.get $i)))))
        (local.set $r
          (f64x2.replace_lane 1
            (f64x2.splat (f64.promote_f32 (f32.load offset=17408 (local.get $i))))
            (f64.promote_f32 (f32.load offset=50176 (local.get $i)))))
        (local.set $squares (f64x2.add (local.get $squares) (f64x2.mul (local.get $l) (local.get $l))))
        (local.set $squares (f64x2.add (local.get $squares) (f64x2.mul (local.get $r) (local.get $r))))
        ;; d = (|r| > |l| ? |r| : |l|) - env; env += max(d, 0) attack + min(d, 0) release.
        (local.set $d
          (f64x2.sub (f64x2.pmax (f64x2.abs (local.get $l)) (f64x2.abs (local.get $r))) (local.get $env)))
        (local.set $env
          (f64x2.add (local.get $env)
            (f64x2.add
              (f64x2.mul (f64x2.pmax (local.get $d) (local.get $zero)) (local.get $attack))
              (f64x2.mul (f64x2.pmin (local.get $d) (local.get $zero)) (local.get $release)))))
        (local.set $gain (f64x2.add (local.get $gain) (local.get $step)))
        (local.set $l (f64x2.mul (local.get $l) (local.get $gain)))
        (local.set $r (f64x2.mul (local.get $r) (local.get $gain)))
        (f32.store offset=1024 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 0 (local.get $l))))
        (f32.store offset=17408 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 0 (local.get $r))))
        (f32.store offset=33792 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 1 (local.get $l))))
        (f32.store offset=50176 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 1 (local.get $r))))
        (local.set $until (i32.sub (local.get $until) (i32.const 1)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br_if $next (i32.lt_u (local.get $i) (local.get $end)))))
    (v128.store offset=32 (i32.const 0) (local.get $env))
    (v128.store offset=48 (i32.const 0) (local.get $gain))
    (v128.store offset=64 (i32.const 0) (local.get $step))
    (v128.store offset=80 (i32.const 0) (local.get $squares))))
