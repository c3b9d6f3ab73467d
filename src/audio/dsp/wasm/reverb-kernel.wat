;; The mixdown's vocal reverb (render/mix-reverb.ts: pre-delay, two allpass diffusers, four-line FDN with
;; damping low-passes), one frame at a time in the very arithmetic of its JavaScript loop: the same f64
;; operations in the same order, rounded to f32 where the JavaScript stores to a Float32Array, and no fused
;; multiply-adds, so the samples are identical. Its value is the loop without bounds checks or wrap tests.
;;
;; Memory (bytes): 0: i32 positions (byte offsets in each ring: pre-delay, diffusers 0 and 1, lines 0-3);
;; 32: f64 low-pass states s0-s3; 64: f64 feedback halves (f_k * 0.5) for lines 0-3; 96: f64 keep, damp,
;; wet; 128: i32 ring lengths in bytes (same order as the positions); 160: i32 ring starts; 256: the space
;; stage's state (below); rings from 512, then the I/O blocks the caller places.
;;
;; `space` is vocal/vocal-space-fx.ts's loop after the reverb (ping-pong delay, voice envelope, ducking of
;; both returns), the same way. Its state at 256, f64: lpL, lpR, env, duckGain, maxDuck; 296, f64 constants:
;; lpc, attack, release, feedback, delayWet, under, over, fullGain, duckDb, duckFullAtDb - 10; 376, i32:
;; position (bytes), ring length (bytes), left ring start, right ring start. The duck's logarithm and power
;; (at most once per 16 frames) are the JavaScript's own Math.log10 and Math.pow, imported.
(module
  (import "math" "log10" (func $log10 (param f64) (result f64)))
  (import "math" "pow" (func $pow (param f64 f64) (result f64)))
  (memory (export "memory") 1)
  (func (export "reverb") (param $mono i32) (param $left i32) (param $right i32) (param $n i32)
    (local $i i32) (local $end i32) (local $at i32)
    (local $pre i32) (local $ap0 i32) (local $ap1 i32) (local $l0 i32) (local $l1 i32) (local $l2 i32) (local $l3 i32)
    (local $npre i32) (local $nap0 i32) (local $nap1 i32) (local $n0 i32) (local $n1 i32) (local $n2 i32) (local $n3 i32)
    (local $pp i32) (local $a0 i32) (local $a1 i32) (local $p0 i32) (local $p1 i32) (local $p2 i32) (local $p3 i32)
    (local $s0 f64) (local $s1 f64) (local $s2 f64) (local $s3 f64)
    (local $h0 f64) (local $h1 f64) (local $h2 f64) (local $h3 f64)
    (local $keep f64) (local $damp f64) (local $wet f64)
    (local $x f64) (local $b f64) (local $v f64) (local $u f64) (local $w f64) (local $y f64) (local $z f64)
    (local.set $pp (i32.load (i32.const 0)))
    (local.set $a0 (i32.load (i32.const 4)))
    (local.set $a1 (i32.load (i32.const 8)))
    (local.set $p0 (i32.load (i32.const 12)))
    (local.set $p1 (i32.load (i32.const 16)))
    (local.set $p2 (i32.load (i32.const 20)))
    (local.set $p3 (i32.load (i32.const 24)))
    (local.set $s0 (f64.load (i32.const 32)))
    (local.set $s1 (f64.load (i32.const 40)))
    (local.set $s2 (f64.load (i32.const 48)))
    (local.set $s3 (f64.load (i32.const 56)))
    (local.set $h0 (f64.load (i32.const 64)))
    (local.set $h1 (f64.load (i32.const 72)))
    (local.set $h2 (f64.load (i32.const 80)))
    (local.set $h3 (f64.load (i32.const 88)))
    (local.set $keep (f64.load (i32.const 96)))
    (local.set $damp (f64.load (i32.const 104)))
    (local.set $wet (f64.load (i32.const 112)))
    (local.set $npre (i32.load (i32.const 128)))
    (local.set $nap0 (i32.load (i32.const 132)))
    (local.set $nap1 (i32.load (i32.const 136)))
    (local.set $n0 (i32.load (i32.const 140)))
    (local.set $n1 (i32.load (i32.const 144)))
    (local.set $n2 (i32.load (i32.const 148)))
    (local.set $n3 (i32.load (i32.const 152)))
    (local.set $pre (i32.load (i32.const 160)))
    (local.set $ap0 (i32.load (i32.const 164)))
    (local.set $ap1 (i32.load (i32.const 168)))
    (local.set $l0 (i32.load (i32.const 172)))
    (local.set $l1 (i32.load (i32.const 176)))
    (local.set $l2 (i32.load (i32.const 180)))
    (local.set $l3 (i32.load (i32.const 184)))
    (local.set $end (i32.shl (local.get $n) (i32.const 2)))
    (block $done
      (br_if $done (i32.eqz (local.get $n)))
      (loop $frame
        ;; Pre-delay: read the delayed sample, then store the dry one.
        (local.set $at (i32.add (local.get $pre) (local.get $pp)))
        (local.set $x (f64.promote_f32 (f32.load (local.get $at))))
        (f32.store (local.get $at) (f32.load (i32.add (local.get $mono) (local.get $i))))
        ;; Diffuser 0: v = x + 0.6 b (stored rounded), x = b - 0.6 v (v unrounded, as in the JavaScript).
        (local.set $at (i32.add (local.get $ap0) (local.get $a0)))
        (local.set $b (f64.promote_f32 (f32.load (local.get $at))))
        (local.set $v (f64.add (local.get $x) (f64.mul (f64.const 0.6) (local.get $b))))
        (f32.store (local.get $at) (f32.demote_f64 (local.get $v)))
        (local.set $x (f64.sub (local.get $b) (f64.mul (f64.const 0.6) (local.get $v))))
        ;; Diffuser 1.
        (local.set $at (i32.add (local.get $ap1) (local.get $a1)))
        (local.set $b (f64.promote_f32 (f32.load (local.get $at))))
        (local.set $v (f64.add (local.get $x) (f64.mul (f64.const 0.6) (local.get $b))))
        (f32.store (local.get $at) (f32.demote_f64 (local.get $v)))
        (local.set $x (f64.sub (local.get $b) (f64.mul (f64.const 0.6) (local.get $v))))
        ;; Line outputs through their damping low-passes: s = line * keep + s * damp.
        (local.set $s0 (f64.add
          (f64.mul (f64.promote_f32 (f32.load (i32.add (local.get $l0) (local.get $p0)))) (local.get $keep))
          (f64.mul (local.get $s0) (local.get $damp))))
        (local.set $s1 (f64.add
          (f64.mul (f64.promote_f32 (f32.load (i32.add (local.get $l1) (local.get $p1)))) (local.get $keep))
          (f64.mul (local.get $s1) (local.get $damp))))
        (local.set $s2 (f64.add
          (f64.mul (f64.promote_f32 (f32.load (i32.add (local.get $l2) (local.get $p2)))) (local.get $keep))
          (f64.mul (local.get $s2) (local.get $damp))))
        (local.set $s3 (f64.add
          (f64.mul (f64.promote_f32 (f32.load (i32.add (local.get $l3) (local.get $p3)))) (local.get $keep))
          (f64.mul (local.get $s3) (local.get $damp))))
        ;; Hadamard / 2 back into the lines: x + (f_k * 0.5) * (...).
        (local.set $u (f64.add (local.get $s0) (local.get $s1)))
        (local.set $w (f64.sub (local.get $s0) (local.get $s1)))
        (local.set $y (f64.add (local.get $s2) (local.get $s3)))
        (local.set $z (f64.sub (local.get $s2) (local.get $s3)))
        (f32.store (i32.add (local.get $l0) (local.get $p0)) (f32.demote_f64
          (f64.add (local.get $x) (f64.mul (local.get $h0) (f64.add (local.get $u) (local.get $y))))))
        (f32.store (i32.add (local.get $l1) (local.get $p1)) (f32.demote_f64
          (f64.add (local.get $x) (f64.mul (local.get $h1) (f64.add (local.get $w) (local.get $z))))))
        (f32.store (i32.add (local.get $l2) (local.get $p2)) (f32.demote_f64
          (f64.add (local.get $x) (f64.mul (local.get $h2) (f64.sub (local.get $u) (local.get $y))))))
        (f32.store (i32.add (local.get $l3) (local.get $p3)) (f32.demote_f64
          (f64.add (local.get $x) (f64.mul (local.get $h3) (f64.sub (local.get $w) (local.get $z))))))
        ;; The returns: left += wet (s0 - s2), right += wet (s1 - s3).
        (local.set $at (i32.add (local.get $left) (local.get $i)))
        (f32.store (local.get $at) (f32.demote_f64 (f64.add
          (f64.promote_f32 (f32.load (local.get $at)))
          (f64.mul (local.get $wet) (f64.sub (local.get $s0) (local.get $s2))))))
        (local.set $at (i32.add (local.get $right) (local.get $i)))
        (f32.store (local.get $at) (f32.demote_f64 (f64.add
          (f64.promote_f32 (f32.load (local.get $at)))
          (f64.mul (local.get $wet) (f64.sub (local.get $s1) (local.get $s3))))))
        ;; Advance every ring position, wrapping at its length.
        (local.set $pp (i32.add (local.get $pp) (i32.const 4)))
        (local.set $pp (select (i32.const 0) (local.get $pp) (i32.eq (local.get $pp) (local.get $npre))))
        (local.set $a0 (i32.add (local.get $a0) (i32.const 4)))
        (local.set $a0 (select (i32.const 0) (local.get $a0) (i32.eq (local.get $a0) (local.get $nap0))))
        (local.set $a1 (i32.add (local.get $a1) (i32.const 4)))
        (local.set $a1 (select (i32.const 0) (local.get $a1) (i32.eq (local.get $a1) (local.get $nap1))))
        (local.set $p0 (i32.add (local.get $p0) (i32.const 4)))
        (local.set $p0 (select (i32.const 0) (local.get $p0) (i32.eq (local.get $p0) (local.get $n0))))
        (local.set $p1 (i32.add (local.get $p1) (i32.const 4)))
        (local.set $p1 (select (i32.const 0) (local.get $p1) (i32.eq (local.get $p1) (local.get $n1))))
        (local.set $p2 (i32.add (local.get $p2) (i32.const 4)))
        (local.set $p2 (select (i32.const 0) (local.get $p2) (i32.eq (local.get $p2) (local.get $n2))))
        (local.set $p3 (i32.add (local.get $p3) (i32.const 4)))
        (local.set $p3 (select (i32.const 0) (local.get $p3) (i32.eq (local.get $p3) (local.get $n3))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br_if $frame (i32.lt_u (local.get $i) (local.get $end)))))
    (i32.store (i32.const 0) (local.get $pp))
    (i32.store (i32.const 4) (local.get $a0))
    (i32.store (i32.const 8) (local.get $a1))
    (i32.store (i32.const 12) (local.get $p0))
    (i32.store (i32.const 16) (local.get $p1))
    (i32.store (i32.const 20) (local.get $p2))
    (i32.store (i32.const 24) (local.get $p3))
    (f64.store (i32.const 32) (local.get $s0))
    (f64.store (i32.const 40) (local.get $s1))
    (f64.store (i32.const 48) (local.get $s2))
    (f64.store (i32.const 56) (local.get $s3)))

  (func (export "space") (param $voice i32) (param $wl i32) (param $wr i32) (param $left i32) (param $right i32)
    (param $n i32)
    (local $i i32) (local $end i32) (local $at i32) (local $pos i32) (local $len i32) (local $dl i32) (local $dr i32)
    (local $lpL f64) (local $lpR f64) (local $env f64) (local $duckGain f64) (local $maxDuck f64)
    (local $lpc f64) (local $attack f64) (local $release f64) (local $fb f64) (local $delayWet f64)
    (local $under f64) (local $over f64) (local $fullGain f64) (local $duckDb f64) (local $from f64)
    (local $v f64) (local $yl f64) (local $yr f64) (local $d f64) (local $duck f64)
    (local.set $lpL (f64.load (i32.const 256)))
    (local.set $lpR (f64.load (i32.const 264)))
    (local.set $env (f64.load (i32.const 272)))
    (local.set $duckGain (f64.load (i32.const 280)))
    (local.set $maxDuck (f64.load (i32.const 288)))
    (local.set $lpc (f64.load (i32.const 296)))
    (local.set $attack (f64.load (i32.const 304)))
    (local.set $release (f64.load (i32.const 312)))
    (local.set $fb (f64.load (i32.const 320)))
    (local.set $delayWet (f64.load (i32.const 328)))
    (local.set $under (f64.load (i32.const 336)))
    (local.set $over (f64.load (i32.const 344)))
    (local.set $fullGain (f64.load (i32.const 352)))
    (local.set $duckDb (f64.load (i32.const 360)))
    (local.set $from (f64.load (i32.const 368)))
    (local.set $pos (i32.load (i32.const 376)))
    (local.set $len (i32.load (i32.const 380)))
    (local.set $dl (i32.load (i32.const 384)))
    (local.set $dr (i32.load (i32.const 388)))
    (local.set $end (i32.shl (local.get $n) (i32.const 2)))
    (block $done
      (br_if $done (i32.eqz (local.get $n)))
      (loop $frame
        (local.set $v (f64.promote_f32 (f32.load (i32.add (local.get $voice) (local.get $i)))))
        ;; Ping-pong: the voice enters the left line; each line feeds the other through its low-pass.
        (local.set $yl (f64.promote_f32 (f32.load (i32.add (local.get $dl) (local.get $pos)))))
        (local.set $yr (f64.promote_f32 (f32.load (i32.add (local.get $dr) (local.get $pos)))))
        (local.set $lpL (f64.add (local.get $lpL) (f64.mul (local.get $lpc) (f64.sub (local.get $yl) (local.get $lpL)))))
        (local.set $lpR (f64.add (local.get $lpR) (f64.mul (local.get $lpc) (f64.sub (local.get $yr) (local.get $lpR)))))
        (f32.store (i32.add (local.get $dl) (local.get $pos))
          (f32.demote_f64 (f64.add (local.get $v) (f64.mul (local.get $fb) (local.get $lpR)))))
        (f32.store (i32.add (local.get $dr) (local.get $pos))
          (f32.demote_f64 (f64.mul (local.get $fb) (local.get $lpL))))
        (local.set $pos (i32.add (local.get $pos) (i32.const 4)))
        (local.set $pos (select (i32.const 0) (local.get $pos) (i32.eq (local.get $pos) (local.get $len))))
        ;; Envelope: env += max(d, 0) attack + min(d, 0) release, d = v^2 - env.
        (local.set $d (f64.sub (f64.mul (local.get $v) (local.get $v)) (local.get $env)))
        (local.set $env (f64.add (local.get $env) (f64.add
          (f64.mul (f64.max (local.get $d) (f64.const 0)) (local.get $attack))
          (f64.mul (f64.min (local.get $d) (f64.const 0)) (local.get $release)))))
        ;; The duck, every 16th frame of the call.
        (if (i32.eqz (i32.and (local.get $i) (i32.const 60)))
          (then
            (if (f64.lt (local.get $env) (local.get $under))
              (then (local.set $duckGain (f64.const 1)))
              (else
                (if (f64.gt (local.get $env) (local.get $over))
                  (then
                    (if (f64.gt (local.get $duckDb) (local.get $maxDuck))
                      (then (local.set $maxDuck (local.get $duckDb))))
                    (local.set $duckGain (local.get $fullGain)))
                  (else
                    ;; duck = duckDb * min(1, max(0, (10 log10(env + 1e-20) - from) / 10)).
                    (local.set $duck (f64.mul (local.get $duckDb) (f64.min (f64.const 1) (f64.max (f64.const 0)
                      (f64.div
                        (f64.sub
                          (f64.mul (f64.const 10) (call $log10 (f64.add (local.get $env) (f64.const 1e-20))))
                          (local.get $from))
                        (f64.const 10))))))
                    (if (f64.gt (local.get $duck) (local.get $maxDuck))
                      (then (local.set $maxDuck (local.get $duck))))
                    (local.set $duckGain
                      (call $pow (f64.const 10) (f64.div (f64.neg (local.get $duck)) (f64.const 20))))))))))
        ;; left += duckGain (wl + delayWet yl), right likewise.
        (local.set $at (i32.add (local.get $left) (local.get $i)))
        (f32.store (local.get $at) (f32.demote_f64 (f64.add (f64.promote_f32 (f32.load (local.get $at)))
          (f64.mul (local.get $duckGain) (f64.add
            (f64.promote_f32 (f32.load (i32.add (local.get $wl) (local.get $i))))
            (f64.mul (local.get $delayWet) (local.get $yl)))))))
        (local.set $at (i32.add (local.get $right) (local.get $i)))
        (f32.store (local.get $at) (f32.demote_f64 (f64.add (f64.promote_f32 (f32.load (local.get $at)))
          (f64.mul (local.get $duckGain) (f64.add
            (f64.promote_f32 (f32.load (i32.add (local.get $wr) (local.get $i))))
            (f64.mul (local.get $delayWet) (local.get $yr)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br_if $frame (i32.lt_u (local.get $i) (local.get $end)))))
    (f64.store (i32.const 256) (local.get $lpL))
    (f64.store (i32.const 264) (local.get $lpR))
    (f64.store (i32.const 272) (local.get $env))
    (f64.store (i32.const 280) (local.get $duckGain))
    (f64.store (i32.const 288) (local.get $maxDuck))
    (i32.store (i32.const 376) (local.get $pos))))
