// SPDX-License-Identifier: GPL-2.0
// usage: node --perf-prof --interpreted-frames-native-stack node-fork.js
//            [NR_FUNCS [NR_CHILDREN [SECONDS [HOT]]]]
//
// A JIT that forks: NR_FUNCS JavaScript functions, each called once so
// that V8 writes a code load for each into its jitdump (see
// node-many-funcs.js), then NR_CHILDREN children spawned one after the
// other with execFileSync('/bin/true'), each a fork (or vfork) of the JIT
// process holding all that code, an exec and an exit; then HOT of the
// functions, spread over all, called round robin for SECONDS, so that V8
// compiles them again after the children and the samples land in their
// code.  Prints the counts and the children's pids (one line, "children
// PID...").
'use strict';
const { execFileSync } = require('child_process');
const nrFuncs = +(process.argv[2] || 40000);
const nrChildren = +(process.argv[3] || 300);
const seconds = +(process.argv[4] || 2);
const nrHot = +(process.argv[5] || 1000);

const src = [];
for (let i = 0; i < nrFuncs; i++)
	src.push(`function f${i}(n) { let s = 0; for (let k = 0; k < n; k++) s += k * ${i}; return s; }`);
src.push(`return [${Array.from({ length: nrFuncs }, (_, i) => `f${i}`).join(', ')}];`);
const funcs = new Function(src.join('\n'))();

let x = 0;
for (const f of funcs)
	x += f(1);

for (let i = 0; i < nrChildren; i++)
	execFileSync('/bin/true');

const stride = Math.max(1, Math.floor(nrFuncs / nrHot));
const hot = funcs.filter((_, i) => i % stride === 0).slice(0, nrHot);
const end = Date.now() + seconds * 1000;
let rounds = 0;
while (Date.now() < end) {
	for (const f of hot)
		x += f(40);
	rounds++;
}
console.log(`${nrFuncs} functions, ${nrChildren} children, ${hot.length} hot, ${rounds} rounds, sum ${x}`);
