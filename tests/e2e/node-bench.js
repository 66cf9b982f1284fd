function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function sieve(n) { const a = new Uint8Array(n); let c = 0; for (let i = 2; i < n; i++) { if (!a[i]) { c++; for (let j = i * 2; j < n; j += i) a[j] = 1; } } return c; }
function strs(n) { let s = 0; for (let i = 0; i < n; i++) s += String(i).length; return s; }
const end = Date.now() + 1500; let x = 0;
while (Date.now() < end) { x += fib(20) + sieve(20000) + strs(2000); }
console.log(x > 0 ? "ok" : "?");
