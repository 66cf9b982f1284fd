define i64 @f1(i64 %n) noinline {
entry:
  br label %loop
loop:
  %i = phi i64 [0, %entry], [%i2, %loop]
  %a = phi i64 [0, %entry], [%a2, %loop]
  %x = mul i64 %i, 4
  %a2 = add i64 %a, %x
  %i2 = add i64 %i, 1
  %c = icmp ult i64 %i2, %n
  br i1 %c, label %loop, label %done
done:
  ret i64 %a2
}
