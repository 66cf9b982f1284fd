// SPDX-License-Identifier: GPL-2.0
// usage: node --perf-prof --interpreted-frames-native-stack node-many-funcs.js
//            [NR_FUNCS [SECONDS [HOT]]]
//
// A hundred thousand JavaScript functions for perf's jitdump: with
// --interpreted-frames-native-stack V8 gives each function, when it is
// first called, a copy of its interpreter entry trampoline (JS:~fN in the
// jitdump), in code pages that it maps and protects as they fill.  Every
// function is called once, then HOT of them, spread over all, are called
// round robin for SECONDS, so that V8 compiles them again (Sparkplug JS:^fN,
// TurboFan JS:*fN) and the samples land in their code.
'use strict';
const nrFuncs = +(process.argv[2] || 100000);
const seconds = +(process.argv[3] || 3);
const nrHot = +(process.argv[4] || 2000);

const src = [];
for (let i = 0; i < nrFuncs; i++)
	src.push(`function f${i}(n) { let s = 0; for (let k = 0; k < n; k++) s += k * ${i}; return s; }`);
src.push(`return [${Array.from({ length: nrFuncs }, (_, i) => `f${i}`).join(', ')}];`);
const funcs = new Function(src.join('\n'))();

let x = 0;
for (const f of funcs)
	x += f(1);
const stride = Math.max(1, Math.floor(nrFuncs / nrHot));
const hot = funcs.filter((_, i) => i % stride === 0).slice(0, nrHot);
const end = Date.now() + seconds * 1000;
let rounds = 0;
while (Date.now() < end) {
	for (const f of hot)
		x += f(40);
	rounds++;
}
console.log(`${nrFuncs} functions, ${hot.length} hot, ${rounds} rounds, sum ${x}`);
