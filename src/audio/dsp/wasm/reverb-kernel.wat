;; The mixdown's vocal reverb (render/mix-reverb.ts: pre-delay, two allpass diffusers, four-line FDN with
;; damping low-passes), one frame at a time in the very arithmetic of its JavaScript loop: the same f64
;; operations in the same order, rounded to f32 where the JavaScript stores to a Float32Array, and no fused
;; multiply-adds, so the samples are identical. Its value is the loop without bounds checks or wrap tests.
;;
;; Memory (bytes): 0: i32 positions (byte offsets in each ring: pre-delay, diffusers 0 and 1, lines 0-3);
;; 32: f64 low-pass states s0-s3; 64: f64 feedback halves (f_k * 0.5) for lines 0-3; 96: f64 keep, damp,
;; wet; 128: i32 ring lengths in bytes (same order as the positions); 160: i32 ring starts; rings from 256,
;; then the I/O blocks the caller places.
(module
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
    (f64.store (i32.const 56) (local.get $s3))))
