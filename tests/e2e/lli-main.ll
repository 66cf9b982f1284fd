declare i64 @f0(i64)
declare i64 @f1(i64)
declare i64 @f2(i64)
declare i64 @f3(i64)
define i32 @main() {
  %a = call i64 @f0(i64 150000000)
  %b = call i64 @f1(i64 150000000)
  %c = call i64 @f2(i64 150000000)
  %d = call i64 @f3(i64 150000000)
  %s1 = add i64 %a, %b
  %s2 = add i64 %c, %d
  %s = add i64 %s1, %s2
  %t = trunc i64 %s to i32
  %r = and i32 %t, 1
  ret i32 %r
}
