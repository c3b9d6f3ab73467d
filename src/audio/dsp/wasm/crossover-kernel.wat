;; The multiband compressor's three-band crossover (crossover.ts, ThreeBandCrossover.split) in WebAssembly
;; SIMD, left and right in the two lanes of an f64x2. The JavaScript splits with four cascade passes, each
;; copying its band into the SIMD kernels' memory and back (low: LP1 LP1 AP2 on the input; rest: HP1 HP1 on
;; the input; mid: LP2 LP2 on the rest; high: HP2 HP2 on the rest). Here two passes do it, each running two
;; independent cascades side by side in one loop: their recursions overlap in the CPU, and the input is read
;; and the bands written once. Each section does the JavaScript's operations in its order (y = b0 x + s1;
;; s1 = b1 x - a1 y + s2; s2 = b2 x - a2 y, no fused multiply-add) and its output is rounded to float32 as the
;; JavaScript stores it, so the bands are bit for bit BiquadCascade.processStereo's.
;;
;; Layout, chosen by the caller (crossover-kernel.ts):
;;      0: coefficients of the nine sections (low 0-2, rest 3-4, mid 5-6, high 7-8), 80 bytes each: b0 b1 b2
;;         a1 a2, each an f64x2 with the value twice;
;;    720: their state, 32 bytes each: s1 then s2, each an f64x2 of (left, right);
;;   1024: six float32 buffers of 4096 frames (16384 bytes each): the low band's left and right (the input
;;         before pass one), the mid's (the rest between the passes), the high's.
;; Assembled by scripts/build-wasm.mjs into crossover-kernel.wasm.ts.
(module
  (memory (export "memory") 2)

  ;; Decaying state under 1e-25 becomes 0 when `flush` is set (the JavaScript does it at the end of every call).
  (func $settle (param $v v128) (param $flush i32) (result v128)
    (if (result v128) (local.get $flush)
      (then
        (v128.andnot (local.get $v)
          (f64x2.lt (f64x2.abs (local.get $v)) (f64x2.splat (f64.const 1e-25)))))
      (else (local.get $v))))

  ;; Pass one over n frames: the input (buffers 0, 1) through the low band's three sections (written over it)
  ;; and through the upper split's high-pass pair (the rest, written to buffers 2, 3).
  (func (export "split_low_rest") (param $n i32) (param $flush i32)
    (local $i i32) (local $end i32) (local $x v128) (local $s0 v128) (local $t0 v128) (local $s1 v128) (local $t1 v128) (local $s2 v128) (local $t2 v128) (local $s3 v128) (local $t3 v128) (local $s4 v128) (local $t4 v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $b0 v128) (local $b1 v128)
    (local.set $s0 (v128.load offset=720 (i32.const 0)))
    (local.set $t0 (v128.load offset=736 (i32.const 0)))
    (local.set $s1 (v128.load offset=752 (i32.const 0)))
    (local.set $t1 (v128.load offset=768 (i32.const 0)))
    (local.set $s2 (v128.load offset=784 (i32.const 0)))
    (local.set $t2 (v128.load offset=800 (i32.const 0)))
    (local.set $s3 (v128.load offset=816 (i32.const 0)))
    (local.set $t3 (v128.load offset=832 (i32.const 0)))
    (local.set $s4 (v128.load offset=848 (i32.const 0)))
    (local.set $t4 (v128.load offset=864 (i32.const 0)))
    (local.set $end (i32.shl (local.get $n) (i32.const 2)))
    (block $done
      (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
      (loop $next
        (local.set $x
          (f64x2.replace_lane 1
            (f64x2.splat (f64.promote_f32 (f32.load offset=1024 (local.get $i))))
            (f64.promote_f32 (f32.load offset=17408 (local.get $i)))))
        (local.set $a0 (f64x2.add (f64x2.mul (v128.load offset=0 (i32.const 0)) (local.get $x)) (local.get $s0)))
        (local.set $s0
          (f64x2.add
            (f64x2.sub (f64x2.mul (v128.load offset=16 (i32.const 0)) (local.get $x)) (f64x2.mul (v128.load offset=48 (i32.const 0)) (local.get $a0)))
            (local.get $t0)))
        (local.set $t0 (f64x2.sub (f64x2.mul (v128.load offset=32 (i32.const 0)) (local.get $x)) (f64x2.mul (v128.load offset=64 (i32.const 0)) (local.get $a0))))
        (local.set $a1 (f64x2.add (f64x2.mul (v128.load offset=80 (i32.const 0)) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $a0)))) (local.get $s1)))
        (local.set $s1
          (f64x2.add
            (f64x2.sub (f64x2.mul (v128.load offset=96 (i32.const 0)) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $a0)))) (f64x2.mul (v128.load offset=128 (i32.const 0)) (local.get $a1)))
            (local.get $t1)))
        (local.set $t1 (f64x2.sub (f64x2.mul (v128.load offset=112 (i32.const 0)) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $a0)))) (f64x2.mul (v128.load offset=144 (i32.const 0)) (local.get $a1))))
        (local.set $a2 (f64x2.add (f64x2.mul (v128.load offset=160 (i32.const 0)) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $a1)))) (local.get $s2)))
        (local.set $s2
          (f64x2.add
            (f64x2.sub (f64x2.mul (v128.load offset=176 (i32.const 0)) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $a1)))) (f64x2.mul (v128.load offset=208 (i32.const 0)) (local.get $a2)))
            (local.get $t2)))
        (local.set $t2 (f64x2.sub (f64x2.mul (v128.load offset=192 (i32.const 0)) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $a1)))) (f64x2.mul (v128.load offset=224 (i32.const 0)) (local.get $a2))))
        (local.set $b0 (f64x2.add (f64x2.mul (v128.load offset=240 (i32.const 0)) (local.get $x)) (local.get $s3)))
        (local.set $s3
          (f64x2.add
            (f64x2.sub (f64x2.mul (v128.load offset=256 (i32.const 0)) (local.get $x)) (f64x2.mul (v128.load offset=288 (i32.const 0)) (local.get $b0)))
            (local.get $t3)))
        (local.set $t3 (f64x2.sub (f64x2.mul (v128.load offset=272 (i32.const 0)) (local.get $x)) (f64x2.mul (v128.load offset=304 (i32.const 0)) (local.get $b0))))
        (local.set $b1 (f64x2.add (f64x2.mul (v128.load offset=320 (i32.const 0)) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $b0)))) (local.get $s4)))
        (local.set $s4
          (f64x2.add
            (f64x2.sub (f64x2.mul (v128.load offset=336 (i32.const 0)) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $b0)))) (f64x2.mul (v128.load offset=368 (i32.const 0)) (local.get $b1)))
            (local.get $t4)))
        (local.set $t4 (f64x2.sub (f64x2.mul (v128.load offset=352 (i32.const 0)) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $b0)))) (f64x2.mul (v128.load offset=384 (i32.const 0)) (local.get $b1))))
        (f32.store offset=1024 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 0 (local.get $a2))))
        (f32.store offset=17408 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 1 (local.get $a2))))
        (f32.store offset=33792 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 0 (local.get $b1))))
        (f32.store offset=50176 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 1 (local.get $b1))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br_if $next (i32.lt_u (local.get $i) (local.get $end)))))
    (v128.store offset=720 (i32.const 0) (call $settle (local.get $s0) (local.get $flush)))
    (v128.store offset=736 (i32.const 0) (call $settle (local.get $t0) (local.get $flush)))
    (v128.store offset=752 (i32.const 0) (call $settle (local.get $s1) (local.get $flush)))
    (v128.store offset=768 (i32.const 0) (call $settle (local.get $t1) (local.get $flush)))
    (v128.store offset=784 (i32.const 0) (call $settle (local.get $s2) (local.get $flush)))
    (v128.store offset=800 (i32.const 0) (call $settle (local.get $t2) (local.get $flush)))
    (v128.store offset=816 (i32.const 0) (call $settle (local.get $s3) (local.get $flush)))
    (v128.store offset=832 (i32.const 0) (call $settle (local.get $t3) (local.get $flush)))
    (v128.store offset=848 (i32.const 0) (call $settle (local.get $s4) (local.get $flush)))
    (v128.store offset=864 (i32.const 0) (call $settle (local.get $t4) (local.get $flush)))
  )

  ;; Pass two: the rest (buffers 2, 3) through the mid band's low-pass pair (written over it) and through the
  ;; high band's high-pass pair (written to buffers 4, 5).
  (func (export "split_mid_high") (param $n i32) (param $flush i32)
    (local $i i32) (local $end i32) (local $x v128) (local $s5 v128) (local $t5 v128) (local $s6 v128) (local $t6 v128) (local $s7 v128) (local $t7 v128) (local $s8 v128) (local $t8 v128)
    (local $a0 v128) (local $a1 v128) (local $b0 v128) (local $b1 v128)
    (local.set $s5 (v128.load offset=880 (i32.const 0)))
    (local.set $t5 (v128.load offset=896 (i32.const 0)))
    (local.set $s6 (v128.load offset=912 (i32.const 0)))
    (local.set $t6 (v128.load offset=928 (i32.const 0)))
    (local.set $s7 (v128.load offset=944 (i32.const 0)))
    (local.set $t7 (v128.load offset=960 (i32.const 0)))
    (local.set $s8 (v128.load offset=976 (i32.const 0)))
    (local.set $t8 (v128.load offset=992 (i32.const 0)))
    (local.set $end (i32.shl (local.get $n) (i32.const 2)))
    (block $done
      (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
      (loop $next
        (local.set $x
          (f64x2.replace_lane 1
            (f64x2.splat (f64.promote_f32 (f32.load offset=33792 (local.get $i))))
            (f64.promote_f32 (f32.load offset=50176 (local.get $i)))))
        (local.set $a0 (f64x2.add (f64x2.mul (v128.load offset=400 (i32.const 0)) (local.get $x)) (local.get $s5)))
        (local.set $s5
          (f64x2.add
            (f64x2.sub (f64x2.mul (v128.load offset=416 (i32.const 0)) (local.get $x)) (f64x2.mul (v128.load offset=448 (i32.const 0)) (local.get $a0)))
            (local.get $t5)))
        (local.set $t5 (f64x2.sub (f64x2.mul (v128.load offset=432 (i32.const 0)) (local.get $x)) (f64x2.mul (v128.load offset=464 (i32.const 0)) (local.get $a0))))
        (local.set $a1 (f64x2.add (f64x2.mul (v128.load offset=480 (i32.const 0)) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $a0)))) (local.get $s6)))
        (local.set $s6
          (f64x2.add
            (f64x2.sub (f64x2.mul (v128.load offset=496 (i32.const 0)) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $a0)))) (f64x2.mul (v128.load offset=528 (i32.const 0)) (local.get $a1)))
            (local.get $t6)))
        (local.set $t6 (f64x2.sub (f64x2.mul (v128.load offset=512 (i32.const 0)) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $a0)))) (f64x2.mul (v128.load offset=544 (i32.const 0)) (local.get $a1))))
        (local.set $b0 (f64x2.add (f64x2.mul (v128.load offset=560 (i32.const 0)) (local.get $x)) (local.get $s7)))
        (local.set $s7
          (f64x2.add
            (f64x2.sub (f64x2.mul (v128.load offset=576 (i32.const 0)) (local.get $x)) (f64x2.mul (v128.load offset=608 (i32.const 0)) (local.get $b0)))
            (local.get $t7)))
        (local.set $t7 (f64x2.sub (f64x2.mul (v128.load offset=592 (i32.const 0)) (local.get $x)) (f64x2.mul (v128.load offset=624 (i32.const 0)) (local.get $b0))))
        (local.set $b1 (f64x2.add (f64x2.mul (v128.load offset=640 (i32.const 0)) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $b0)))) (local.get $s8)))
        (local.set $s8
          (f64x2.add
            (f64x2.sub (f64x2.mul (v128.load offset=656 (i32.const 0)) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $b0)))) (f64x2.mul (v128.load offset=688 (i32.const 0)) (local.get $b1)))
            (local.get $t8)))
        (local.set $t8 (f64x2.sub (f64x2.mul (v128.load offset=672 (i32.const 0)) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $b0)))) (f64x2.mul (v128.load offset=704 (i32.const 0)) (local.get $b1))))
        (f32.store offset=33792 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 0 (local.get $a1))))
        (f32.store offset=50176 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 1 (local.get $a1))))
        (f32.store offset=66560 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 0 (local.get $b1))))
        (f32.store offset=82944 (local.get $i) (f32.demote_f64 (f64x2.extract_lane 1 (local.get $b1))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br_if $next (i32.lt_u (local.get $i) (local.get $end)))))
    (v128.store offset=880 (i32.const 0) (call $settle (local.get $s5) (local.get $flush)))
    (v128.store offset=896 (i32.const 0) (call $settle (local.get $t5) (local.get $flush)))
    (v128.store offset=912 (i32.const 0) (call $settle (local.get $s6) (local.get $flush)))
    (v128.store offset=928 (i32.const 0) (call $settle (local.get $t6) (local.get $flush)))
    (v128.store offset=944 (i32.const 0) (call $settle (local.get $s7) (local.get $flush)))
    (v128.store offset=960 (i32.const 0) (call $settle (local.get $t7) (local.get $flush)))
    (v128.store offset=976 (i32.const 0) (call $settle (local.get $s8) (local.get $flush)))
    (v128.store offset=992 (i32.const 0) (call $settle (local.get $t8) (local.get $flush)))
  )
)
