;; The multiband compressor's bands (compressor.ts, Compressor.process in relative mode on a stereo band) in
;; WebAssembly SIMD, two bands in the two lanes of an f64x2 (decision 316): each band's detector is a chain
;; of dependent operations, and the two chains run side by side in one instruction each. Per lane the
;; operations are the JavaScript loop's in its order (the squares of left then right, the peak of the two,
;; attack or release, the gain's ramp, the product), so the samples are bit for bit the same. The peak
;; uses f64x2.abs and pmax/pmin where the JavaScript compares: they differ only for a -0 input, whose
;; detector step is a zero either way.
;; At a control point (every 16 frames, at absolute positions) the running mean square moves on and the
;; detector's power relative to it is taken here, in Compressor #target's operations and order (decision
;; 322). Below the knee's quiet line the gain is 1 without a call; only a point that may be compressed (or
;; every point of a band whose gain curve is traced) calls the imported `control` for its target, which
;; stays the JavaScript's (logarithm, curve, trace, statistics).
;;
;; Layout, chosen by the caller (band-compressor.ts):
;;     0: attack, 16: release (each an f64x2 of the two bands');
;;    32: envelope, 48: gain, 64: step, 80: sum of squares (the bands' state);
;;   144..240: the third band's (compress3) same six fields, both lanes alike;
;;   288 (bands a, b) and 400 (band c), 112 bytes each, the control points' fields (POINT_*):
;;     +0 running mean square, +16 its coefficient per point, +32 the quiet line (power under which the
;;     gain is 1), +48 1 where every point calls, +64 the envelope and +80 the power handed to `control`,
;;     +96 the target it writes back;
;;   1024: six float32 buffers of 4096 frames (16384 bytes each): band a left, right, band b left, right,
;;         band c left, right, compressed in place.
;; Assembled by scripts/build-wasm.mjs into band-compressor.wasm.ts.
(module
  ;; control(offset, lanes): the targets of the control point `offset` frames into the call, for the lanes
  ;; whose bits are set (1: band a, 2: band b, 4: band c).
  (import "js" "control" (func $control (param i32) (param i32)))
  (memory (export "memory") 2)

  ;; A control point of the bands whose fields are at $at: the running mean square moved on by the squares
  ;; summed since the last point (two channels of 16 frames: their sum over 32), the detector's power
  ;; relative to it, both stored for `control`; returns the lanes that need its target.
  (func $point (param $env v128) (param $squares v128) (param $at i32) (result v128)
    (local $ms v128) (local $power v128)
    (local.set $ms (v128.load offset=0 (local.get $at)))
    (local.set $ms
      (f64x2.add (local.get $ms)
        (f64x2.mul
          (f64x2.sub (f64x2.div (local.get $squares) (f64x2.splat (f64.const 32))) (local.get $ms))
          (v128.load offset=16 (local.get $at)))))
    (local.set $ms
      (v128.bitselect (f64x2.splat (f64.const 1e-20)) (local.get $ms)
        (f64x2.lt (local.get $ms) (f64x2.splat (f64.const 1e-20)))))
    (v128.store offset=0 (local.get $at) (local.get $ms))
    (local.set $power (f64x2.div (f64x2.mul (local.get $env) (local.get $env)) (local.get $ms)))
    (v128.store offset=64 (local.get $at) (local.get $env))
    (v128.store offset=80 (local.get $at) (local.get $power))
    (v128.or
      (v128.and
        (f64x2.gt (local.get $env) (f64x2.splat (f64.const 0)))
        (f64x2.ge (local.get $power) (v128.load offset=32 (local.get $at))))
      (f64x2.gt (v128.load offset=48 (local.get $at)) (f64x2.splat (f64.const 0)))))

  ;; The targets of the bands at $at after a point: what `control` wrote where `need`, else 1.
  (func $targets (param $need v128) (param $at i32) (result v128)
    (v128.bitselect (v128.load offset=96 (local.get $at)) (f64x2.splat (f64.const 1)) (local.get $need)))

  ;; n frames; `until`: frames before the first control point (0..15).
  (func (export "compress") (param $n i32) (param $until i32)
    (local $i i32) (local $end i32) (local $lanes i32) (local $need v128)
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
            (local.set $need (call $point (local.get $env) (local.get $squares) (i32.const 288)))
            (local.set $lanes (i64x2.bitmask (local.get $need)))
            (if (local.get $lanes)
              (then (call $control (i32.shr_u (local.get $i) (i32.const 2)) (local.get $lanes))))
            (local.set $step
              (f64x2.div
                (f64x2.sub (call $targets (local.get $need) (i32.const 288)) (local.get $gain))
                (f64x2.splat (f64.const 16))))
            ;; The point took the squares (relative mode): they start again from zero.
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
    (v128.store offset=80 (i32.const 0) (local.get $squares)))

  ;; Three bands in one loop (the two-worker render's back compresses all three): bands a and b as in
  ;; `compress`, band c in both lanes of a second f64x2 (its two lanes the same: lane 1 is only read from lane
  ;; 0's values), the two vectors' chains overlapping in the CPU instead of a second call waiting on its own.
  ;; Band c's parameters and state at 144 (attack), 160 (release), 176 envelope, 192 gain, 208 step, 224
  ;; squares; its control points' fields at 400; its samples in the fifth and sixth buffers (66560, 82944).
  (func (export "compress3") (param $n i32) (param $until i32)
    (local $i i32) (local $end i32) (local $lanes i32) (local $need v128) (local $cneed v128)
    (local $attack v128) (local $release v128) (local $env v128) (local $gain v128) (local $step v128)
    (local $squares v128) (local $l v128) (local $r v128) (local $d v128) (local $zero v128)
    (local $cattack v128) (local $crelease v128) (local $cenv v128) (local $cgain v128) (local $cstep v128)
    (local $csquares v128) (local $cl v128) (local $cr v128) (local $cd v128)
    (local.set $attack (v128.load offset=0 (i32.const 0)))
    (local.set $release (v128.load offset=16 (i32.const 0)))
    (local.set $env (v128.load offset=32 (i32.const 0)))
    (local.set $gain (v128.load offset=48 (i32.const 0)))
    (local.set $step (v128.load offset=64 (i32.const 0)))
    (local.set $squares (v128.load offset=80 (i32.const 0)))
    (local.set $cattack (v128.load offset=144 (i32.const 0)))
    (local.set $crelease (v128.load offset=160 (i32.const 0)))
    (local.set $cenv (v128.load offset=176 (i32.const 0)))
    (local.set $cgain (v128.load offset=192 (i32.const 0)))
    (local.set $cstep (v128.load offset=208 (i32.const 0)))
    (local.set $csquares (v128.load offset=224 (i32.const 0)))
    (local.set $zero (f64x2.splat (f64.const 0)))
    (local.set $end (i32.shl (local.get $n) (i32.const 2)))
    (block $done
      (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
      (loop $next
        (if (i32.eqz (local.get $until))
          (then
            (local.set $env
              (v128.andnot (local.get $env)
                (f64x2.lt (local.get $env) (f64x2.splat (f64.const 1e-20)))))
            (local.set $cenv
              (v128.andnot (local.get $cenv)
                (f64x2.lt (local.get $cenv) (f64x2.splat (f64.const 1e-20)))))
            (local.set $need (call $point (local.get $env) (local.get $squares) (i32.const 288)))
            (local.set $cneed (call $point (local.get $cenv) (local.get $csquares) (i32.const 400)))
            ;; Band c's two lanes are alike: its bit is lane 0's.
            (local.set $lanes
              (i32.or (i64x2.bitmask (local.get $need))
                (i32.shl (i32.and (i64x2.bitmask (local.get $cneed)) (i32.const 1)) (i32.const 2))))
            (if (local.get $lanes)
              (then (call $control (i32.shr_u (local.get $i) (i32.const 2)) (local.get $lanes))))
            (local.set $step
              (f64x2.div
                (f64x2.sub (call $targets (local.get $need) (i32.const 288)) (local.get $gain))
                (f64x2.splat (f64.const 16))))
            (local.set $cstep
              (f64x2.div
                (f64x2.sub (call $targets (local.get $cneed) (i32.const 400)) (local.get $cgain))
                (f64x2.splat (f64.const 16))))
            (local.set $squares (local.get $zero))
            (local.set $csquares (local.get $zero))
            (local.set $until (i32.const 16))))
        (local.set $l
          (f64x2.replace_lane 1
            (f64x2.splat (f64.promote_f32 (f32.load offset=1024 (local.get $i))))
            (f64.promote_f32 (f32.load offset=33792 (local.get $i)))))
        (local.set $r
          (f64x2.replace_lane 1
            (f64x2.splat (f64.promote_f32 (f32.load offset=17408 (local.get $i))))
            (f64.promote_f32 (f32.load offset=50176 (local.get $i)))))
        (local.set $cl (f64x2.splat (f64.promote_f32 (f32.load offset=66560 (local.get $i)))))
        (local.set $cr (f64x2.splat (f64.promote_f32 (f32.load offset=82944 (local.get $i)))))
        (local.set $squares (f64x2.add (local.get $squares) (f64x2.mul (local.get $l) (local.get $l))))
        (local.set $squares (f64x2.add (local.get $squares) (f64x2.mul (local.get $r) (local.get $r))))
        (local.set $csquares (f64x2.add (local.get $csquares) (f64x2.mul (local.get $cl) (local.get $cl))))
        (local.set $csquares (f64x2.add (local.get $csquares) (f64x2.mul (local.get $cr) (local.get $cr))))
        (local.set $d
          (f64x2.sub (f64x2.pmax (f64x2.abs (local.get $l)) (f64x2.abs (local.get $r))) (local.get $env)))
        (local.set $cd
          (f64x2.sub (f64x2.pmax (f64x2.abs (local.get $cl)) (f64x2.abs (local.get $cr))) (local.get $cenv)))
        (local.set $env
          (f64x2.add (local.get $env)
            (f64x2.add
              (f64x2.mul (f64x2.pmax (local.get $d) (local.get $zero)) (local.get $attack))
              (f64x2.mul (f64x2.pmin (local.get $d) (local.get $zero)) (local.get $release)))))
        (local.set $cenv
          (f64x2.add (local.get $cenv)
            (f64x2.add
              (f64x2.mul (f64x2.pmax (local.get $cd) (local.get $zero)) (local.get $cattack))
              (f64x2.mul (f64x2.pmin (local.get $cd) (local.get $zero)) (local.get $crelease)))))
        (local.set $gain (f64x2.add (local.get $gain) (local.get $step)))
        (local.set $cgain (f64x2.add (local.get $cgain) (local.get $cstep)))
        (local.set $l (f64x2.mul (local.get $l) (local.get $gain)))
        (local.set $r (f64x2.mul (local.get $r) (local.get $gain)))
        (local.set $cl (f64x2.mul (local.get $cl) (local.get $cgain)))
        (local.set $cr (f64x2.mul (local.get $cr) (local.get $cgain)))
        (f32.store offset=1024 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 0 (local.get $l))))
        (f32.store offset=17408 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 0 (local.get $r))))
        (f32.store offset=33792 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 1 (local.get $l))))
        (f32.store offset=50176 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 1 (local.get $r))))
        (f32.store offset=66560 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 0 (local.get $cl))))
        (f32.store offset=82944 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 0 (local.get $cr))))
        (local.set $until (i32.sub (local.get $until) (i32.const 1)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br_if $next (i32.lt_u (local.get $i) (local.get $end)))))
    (v128.store offset=32 (i32.const 0) (local.get $env))
    (v128.store offset=48 (i32.const 0) (local.get $gain))
    (v128.store offset=64 (i32.const 0) (local.get $step))
    (v128.store offset=80 (i32.const 0) (local.get $squares))
    (v128.store offset=176 (i32.const 0) (local.get $cenv))
    (v128.store offset=192 (i32.const 0) (local.get $cgain))
    (v128.store offset=208 (i32.const 0) (local.get $cstep))
    (v128.store offset=224 (i32.const 0) (local.get $csquares)))
)
