/// The explorer page's script (inline, allowed by its hash). It reads the embedded data, cuts the single- and
/// average-linkage merges at the cursor with a union–find (a merge joins when its height ≥ t, as the harness cuts),
/// picks the leader's nearest grid point, and scores every partition with the harness's pair-count ARI and pair F1
/// (integer counts, then the same float64 expression). Every text from the data is set as text, never as markup.
enum ExplorerScript {
    static let source = #"""
        'use strict';
        (() => {
        const $ = (id) => document.getElementById(id);
        const D = JSON.parse($('data').textContent);
        const SVGNS = $('svg-namespace').namespaceURI;
        const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#882255', '#44AA99', '#999933', '#332288'];
        const GROUPS_SHOWN = 100, MEMBERS_SHOWN = 500, FOUND_SHOWN = 20;
        const THRESHOLD_GROUPINGS = ['components', 'average', 'leader'];
        const MERGES = { components: 'forest', average: 'average' };
        const CURSOR = '#000000';

        // ---- data ----
        function bytes(s) {
          const b = atob(s), u = new Uint8Array(b.length);
          for (let i = 0; i < b.length; i++) u[i] = b.charCodeAt(i);
          return u;
        }
        function unpack(p) {
          if (!p) return null;
          return p.i32 !== undefined ? new Int32Array(bytes(p.i32).buffer) : new Float32Array(bytes(p.f32).buffer);
        }
        function merges(m) {
          return m ? { a: unpack(m.a), b: unpack(m.b), h: unpack(m.heights), central: unpack(m.central) } : null;
        }
        function centralMap(p) {
          const flat = unpack(p), out = new Map();
          for (let k = 0; k < flat.length; k += 4) out.set(flat[k], [flat[k + 1], flat[k + 2], flat[k + 3]]);
          return out;
        }
        function partition(p) {
          return { grouping: p.grouping, colour: p.colour, threshold: p.threshold, rule: p.rule, labels: unpack(p.labels),
            central: centralMap(p.central) };
        }
        const decoded = new Map();
        function corpus(c) {
          if (decoded.has(c)) return decoded.get(c);
          const raw = D.corpora[c], labels = unpack(raw.labels), n = raw.items;
          const out = { raw, n, labels, sample: unpack(raw.sample), spaces: new Map(), topics: raw.labelNames ? raw.labelNames.length : 0 };
          if (labels) {
            const sizes = new Float64Array(out.topics);
            for (let i = 0; i < n; i++) sizes[labels[i]]++;
            const start = new Int32Array(out.topics + 1);
            for (let c2 = 0; c2 < out.topics; c2++) start[c2 + 1] = start[c2] + sizes[c2];
            const next = start.slice(0, out.topics), byClass = new Int32Array(n);
            for (let i = 0; i < n; i++) byClass[next[labels[i]]++] = i;
            let sameClass = 0;
            for (const s of sizes) sameClass += s * (s - 1) / 2;
            Object.assign(out, { start, byClass, sameClass });
          }
          out.inSample = out.sample ? new Uint8Array(n) : null;
          if (out.sample) for (const i of out.sample) out.inSample[i] = 1;
          decoded.set(c, out);
          return out;
        }
        function space(c, s) {
          const co = corpus(c);
          if (co.spaces.has(s)) return co.spaces.get(s);
          const raw = co.raw.spaces.find((x) => x.space === s);
          const out = { raw, forest: merges(raw.forest), average: merges(raw.average), leader: raw.leader.map(partition),
            fixed: raw.fixed.map(partition), mapX: unpack(raw.map[0]), mapY: unpack(raw.map[1]), curves: new Map() };
          co.spaces.set(s, out);
          return out;
        }

        // ---- partitions at a threshold ----
        function cutMerges(m, t, n) {
          const parent = new Int32Array(n), top = new Int32Array(n).fill(-1);
          for (let i = 0; i < n; i++) parent[i] = i;
          const find = (x) => { while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; } return x; };
          for (let k = 0; k < m.h.length; k++) {
            if (!(m.h[k] >= t)) continue;
            const ra = find(m.a[k]), rb = find(m.b[k]);
            if (ra === rb) continue;
            const r = ra < rb ? ra : rb;
            parent[r === ra ? rb : ra] = r;
            top[r] = k;
          }
          const labels = new Int32Array(n), ids = new Int32Array(n).fill(-1), node = [];
          for (let i = 0; i < n; i++) {
            const r = find(i);
            if (ids[r] < 0) { ids[r] = node.length; node.push(top[r]); }
            labels[i] = ids[r];
          }
          const central = (g, members) => {
            const k = node[g];
            if (k < 0) return members;
            const c = Array.from(m.central.subarray(3 * k, 3 * k + 3)).filter((i) => i >= 0);
            return c.length ? c : members;
          };
          return { labels, central };
        }
        function nearestGrid(list, t) {
          let best = 0;
          for (let k = 1; k < list.length; k++) if (Math.abs(list[k].threshold - t) < Math.abs(list[best].threshold - t)) best = k;
          return list[best];
        }
        function fixedCut(p) {
          return { labels: p.labels, central: (g, members) => p.central.get(g) || members };
        }
        /// The partition of `grouping` at t in corpus c, space s: labels (−1 noise), central entries, and the grid point used.
        function cutAt(c, s, grouping, t) {
          const co = corpus(c), sp = space(c, s);
          if (grouping === 'components') return cutMerges(sp.forest, t, co.n);
          if (grouping === 'average') return sp.average ? cutMerges(sp.average, t, co.n) : null;
          if (grouping === 'leader') {
            if (!sp.leader.length) return null;
            const p = nearestGrid(sp.leader, t);
            return Object.assign(fixedCut(p), { grid: p.threshold, rule: p.rule });
          }
          const p = sp.fixed.find((f) => 'fixed:' + f.grouping === grouping);
          return p ? fixedCut(p) : null;
        }

        // ---- scores: the harness's pair counts (PairConfusion), noise as singletons ----
        function dense(labels) {
          let next = 0;
          for (const l of labels) if (l >= next) next = l + 1;
          const out = new Int32Array(labels.length);
          for (let i = 0; i < labels.length; i++) out[i] = labels[i] >= 0 ? labels[i] : next++;
          return { labels: out, count: next };
        }
        function ariFrom(tp, fp, fn, tn) {
          if (fn === 0 && fp === 0) return 1;
          return 2 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn));
        }
        function pairCounts(n, sameCell, sameCluster, sameClass) {
          const tp = 2 * sameCell, fp = 2 * (sameCluster - sameCell), fn = 2 * (sameClass - sameCell);
          return { tp, fp, fn, tn: n * (n - 1) - tp - fp - fn };
        }
        function score(c, labels) {
          const co = corpus(c), d = dense(labels), sizes = new Float64Array(d.count);
          for (const l of d.labels) sizes[l]++;
          let sameCluster = 0, singletons = 0, used = 0;
          for (const s of sizes) { if (s > 0) used++; if (s === 1) singletons++; sameCluster += s * (s - 1) / 2; }
          const out = { groups: used, singletons, ari: null, pairF1: null };
          if (!co.labels) return out;
          const inCell = new Float64Array(d.count);
          let sameCell = 0;
          for (let t = 0; t < co.topics; t++) {
            for (let k = co.start[t]; k < co.start[t + 1]; k++) { const g = d.labels[co.byClass[k]]; sameCell += inCell[g]; inCell[g]++; }
            for (let k = co.start[t]; k < co.start[t + 1]; k++) inCell[d.labels[co.byClass[k]]] = 0;
          }
          const p = pairCounts(co.n, sameCell, sameCluster, co.sameClass);
          out.ari = ariFrom(p.tp, p.fp, p.fn, p.tn);
          const denominator = 2 * p.tp + p.fp + p.fn;
          out.pairF1 = denominator > 0 ? 2 * p.tp / denominator : null;
          return out;
        }
        /// ARI after every merge height, highest first, in one sweep (the harness's BestCut): [[height, ari], …].
        function mergeCurve(c, m) {
          const co = corpus(c), n = co.n, order = Array.from(m.h.keys()).sort((x, y) => m.h[y] - m.h[x] || x - y);
          const parent = new Int32Array(n), size = new Float64Array(n).fill(1), bags = new Array(n);
          for (let i = 0; i < n; i++) { parent[i] = i; bags[i] = new Map([[co.labels[i], 1]]); }
          const find = (x) => { while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; } return x; };
          let sameCell = 0, sameCluster = 0;
          const points = [];
          for (let k = 0; k < order.length;) {
            const h = m.h[order[k]];
            for (; k < order.length && m.h[order[k]] === h; k++) {
              let ra = find(m.a[order[k]]), rb = find(m.b[order[k]]);
              if (ra === rb) continue;
              if (bags[ra].size < bags[rb].size) [ra, rb] = [rb, ra];
              for (const [topic, v] of bags[rb]) {
                const had = bags[ra].get(topic) || 0;
                sameCell += v * had;
                bags[ra].set(topic, had + v);
              }
              bags[rb] = null;
              sameCluster += size[ra] * size[rb];
              size[ra] += size[rb];
              parent[rb] = ra;
            }
            const p = pairCounts(n, sameCell, sameCluster, co.sameClass);
            points.push([h, ariFrom(p.tp, p.fp, p.fn, p.tn)]);
          }
          return points;
        }
        function curveOf(c, s, grouping) {
          const sp = space(c, s);
          if (sp.curves.has(grouping)) return sp.curves.get(grouping);
          let points = null;
          if (grouping === 'leader') points = sp.leader.map((p) => [p.threshold, score(c, p.labels).ari]);
          else if (sp[MERGES[grouping]]) points = mergeCurve(c, sp[MERGES[grouping]]);
          sp.curves.set(grouping, points);
          return points;
        }

        // ---- text as text ----
        const HIDDEN = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]/g;
        function shown(s) {
          return String(s).replace(HIDDEN, (ch) => '⟨U+' + ch.codePointAt(0).toString(16).toUpperCase().padStart(4, '0') + '⟩');
        }
        function el(tag, className, textValue) {
          const e = document.createElement(tag);
          if (className) e.className = className;
          if (textValue !== undefined) e.textContent = shown(textValue);
          return e;
        }
        function svg(tag, attributes, parent) {
          const e = document.createElementNS(SVGNS, tag);
          for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
          if (parent) parent.appendChild(e);
          return e;
        }
        const fmt = (x, digits = 4) => (x === null || x === undefined ? '–' : Number(x).toFixed(digits));

        // ---- state and address ----
        const state = { c: 0, s: null, g: 'components', t: 0, selected: null, query: '' };
        function readAddress() {
          const q = new URLSearchParams(location.hash.slice(1));
          const c = parseInt(q.get('c') || '0', 10);
          state.c = c >= 0 && c < D.corpora.length ? c : 0;
          const spaces = D.corpora[state.c].spaces.map((x) => x.space);
          state.s = spaces.includes(q.get('space')) ? q.get('space') : spaces.includes('centred') ? 'centred' : spaces[0];
          state.g = q.get('g') || 'components';
          const t = parseFloat(q.get('t'));
          const sp = D.corpora[state.c].spaces.find((x) => x.space === state.s);
          const otsu = sp && sp.rules.find((r) => r.rule === 'otsu');
          state.t = Number.isFinite(t) ? Math.max(-1, Math.min(1, t)) : otsu ? otsu.value : sp && sp.rules.length ? sp.rules[0].value : 0.5;
          state.query = q.get('q') || '';
          return q;
        }
        function writeAddress() {
          const q = new URLSearchParams({ c: state.c, space: state.s, g: state.g, t: String(state.t) });
          if (state.query) q.set('q', state.query);
          try { history.replaceState(null, '', '#' + q.toString()); } catch (e) { /* a file:// page may refuse; the view still works */ }
        }

        // ---- panels ----
        function header() {
          $('title').textContent = shown('ThemeLab explorer: ' + D.title);
          const p = D.provenance;
          $('made').textContent = shown('Made by themelab ' + p.version + ' (' + p.command.join(' ') + '), BLAS kernel ' + p.blas.kernel +
            (p.model ? ', model ' + p.model.slice(0, 12) : '') + ', ' + p.createdAt + '.');
          const inputs = Object.keys(p.inputs).sort().map((k) => '  ' + p.inputs[k] + '  ' + k).join('\n');
          $('provenance-text').textContent = shown('command: ' + p.command.join(' ') + '\nversion: ' + p.version + '\nmodel: ' +
            (p.model || 'none') + '\nBLAS: ' + p.blas.config + ' (kernel ' + p.blas.kernel + ')\nCPU: ' + p.cpu + '\ncreated: ' +
            p.createdAt + '\ninputs (SHA-256):\n' + inputs);
          const view = $('view');
          D.corpora.forEach((co, i) => {
            const o = el('option', null, co.name + ' — ' + co.source + ' (' + co.items + ' items)');
            o.value = i;
            view.appendChild(o);
          });
        }
        function controls() {
          const co = D.corpora[state.c], sp = space(state.c, state.s);
          $('view').value = String(state.c);
          const spaces = $('spaces');
          spaces.replaceChildren(...co.spaces.map((x) => {
            const b = el('button', null, x.space);
            b.setAttribute('aria-pressed', String(x.space === state.s));
            b.addEventListener('click', () => { state.s = x.space; state.selected = null; render(); });
            return b;
          }));
          const options = THRESHOLD_GROUPINGS.filter((g) => g !== 'average' || sp.average).map((g) => [g, g + ' (at the cursor)'])
            .concat(sp.fixed.map((f) => ['fixed:' + f.grouping, f.grouping + ' (its own level)']));
          if (!options.some(([v]) => v === state.g)) state.g = 'components';
          $('grouping').replaceChildren(...options.map(([v, label]) => { const o = el('option', null, label); o.value = v; return o; }));
          $('grouping').value = state.g;
          $('rule-buttons').replaceChildren(...sp.raw.rules.map((r) => {
            const b = el('button'), sw = el('span', 'swatch');
            sw.style.background = r.colour;
            b.append(sw, document.createTextNode(shown(r.rule + ' ' + fmt(r.value, 3))));
            b.title = shown(r.rule + ' = ' + r.value);
            b.addEventListener('click', () => setT(r.value));
            return b;
          }));
          const notes = co.notes.slice();
          if (sp.raw.averageNote) notes.push(sp.raw.averageNote);
          $('notes').textContent = shown(notes.join(' · '));
          const sampling = $('sampling');
          sampling.hidden = !co.sample;
          if (co.sample) {
            sampling.textContent = 'This corpus has ' + co.items + ' items, more than ' + D.sampleLimit +
              ': the map and the member lists ' +
              'show a seeded sample of ' + D.sampleLimit + ' items. Counts and scores use every item.';
          }
        }
        function domain(sp) {
          const all = sp.histogram.all || [];
          let lo = all.findIndex((v) => v > 0), hi = all.length - 1 - all.slice().reverse().findIndex((v) => v > 0);
          if (lo < 0) { lo = 0; hi = 199; }
          let a = -1 + lo / 100, b = -1 + (hi + 1) / 100;
          for (const r of sp.rules) { a = Math.min(a, r.value); b = Math.max(b, r.value); }
          const pad = (b - a) * 0.04 + 0.01;
          return [Math.max(-1, a - pad), Math.min(1, b + pad)];
        }
        /// The cursor's line on a figure whose x scale is `sx`; a cursor step only moves the lines (`placeCursors`).
        let cursorMarks = [];
        function cursorLine(root, sx) {
          const line = svg('line', { y1: M.t, y2: H - M.b, stroke: CURSOR, 'stroke-width': 2.5 }, root);
          const label = svg('text', { y: M.t + 8, 'font-weight': 'bold' }, root);
          label.textContent = 't';
          cursorMarks.push({ line, label, sx });
        }
        function placeCursors() {
          for (const m of cursorMarks) {
            const x = m.sx(state.t);
            m.line.setAttribute('x1', x);
            m.line.setAttribute('x2', x);
            m.label.setAttribute('x', x + 3);
          }
        }
        const W = 380, H = 170, M = { l: 34, r: 8, t: 8, b: 22 };
        function axisX(g, x0, x1, sx) {
          // Ticks every 0.1, 0.2 or 0.5, whichever keeps their labels apart at this width.
          const every = x1 - x0 <= 1.1 ? 1 : x1 - x0 <= 2.2 ? 2 : 5;
          for (let k = Math.ceil(x0 * 10 / every) * every; k <= Math.floor(x1 * 10); k += every) {
            const x = sx(k / 10);
            svg('line', { x1: x, x2: x, y1: H - M.b, y2: H - M.b + 4, stroke: '#666' }, g);
            svg('text', { x, y: H - 6, 'text-anchor': 'middle' }, g).textContent = (k / 10).toFixed(1);
          }
          svg('line', { x1: M.l, x2: W - M.r, y1: H - M.b, y2: H - M.b, stroke: '#666' }, g);
        }
        function histograms() {
          const box = $('histograms'), co = D.corpora[state.c];
          box.replaceChildren();
          for (const sp of co.spaces) {
            const div = el('div', 'histogram' + (sp.space === state.s ? ' active' : ''));
            div.appendChild(el('h3', null, sp.space + ' space: pair similarities'));
            const [x0, x1] = domain(sp), sx = (x) => M.l + (x - x0) / (x1 - x0) * (W - M.l - M.r);
            const root = svg('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img' });
            const classes = sp.histogram.related ? [['related', '#000000'], ['unrelated', '#8C8C8C']] : [['all', '#000000']];
            for (const [cls, colour] of classes) {
              const counts = sp.histogram[cls] || [], total = counts.reduce((x, y) => x + y, 0) || 1;
              const peak = Math.max(...counts) / total || 1;
              let d = '';
              counts.forEach((v, k) => {
                const y = H - M.b - (v / total) / peak * (H - M.t - M.b), xa = sx(-1 + k / 100), xb = sx(-1 + (k + 1) / 100);
                d += (d ? 'L' : 'M') + xa.toFixed(1) + ',' + y.toFixed(1) + 'L' + xb.toFixed(1) + ',' + y.toFixed(1);
              });
              svg('path', { d, fill: 'none', stroke: colour, 'stroke-width': 1.3 }, root);
            }
            axisX(root, x0, x1, sx);
            for (const r of sp.rules) {
              svg('line', { x1: sx(r.value), x2: sx(r.value), y1: M.t, y2: H - M.b, stroke: r.colour, 'stroke-dasharray': r.dash,
                'stroke-width': 1.5 }, root)
                .appendChild(svg('title', {})).textContent = r.rule + ' = ' + r.value;
            }
            if (sp.space === state.s) cursorLine(root, sx);
            const legend = classes.length > 1 ? 'related pairs (black), unrelated (grey), each scaled to its peak' : 'all pairs';
            div.appendChild(el('p', 'legend', legend));
            const pick = (ev) => {
              const box2 = root.getBoundingClientRect(), x = (ev.clientX - box2.left) / box2.width * W;
              const t = x0 + (x - M.l) / (W - M.l - M.r) * (x1 - x0);
              if (sp.space !== state.s) {
                state.s = sp.space;
                state.selected = null;
                state.t = Math.max(-1, Math.min(1, t));
                render();
              } else setT(Math.max(-1, Math.min(1, t)), true);
            };
            root.addEventListener('pointerdown', (ev) => { root.setPointerCapture(ev.pointerId); pick(ev); });
            root.addEventListener('pointermove', (ev) => { if (ev.buttons & 1) pick(ev); });
            div.appendChild(root);
            box.appendChild(div);
          }
        }
        function numbers(cuts) {
          const co = corpus(state.c), labelled = !!co.labels, table = $('numbers');
          const head = el('tr');
          for (const h of ['grouping', 'groups', 'singletons'].concat(labelled ? ['ARI', 'pair F1'] : [])) {
            head.appendChild(el('th', null, h));
          }
          const rows = [head];
          for (const [g, r] of cuts) {
            const tr = el('tr', g === state.g ? 'active' : '');
            const name = g.startsWith('fixed:') ? g.slice(6) : g === 'leader' && r.grid !== undefined ? 'leader at t = ' + fmt(r.grid) +
              (r.rule ? ' (' + r.rule + ')' : ' (nearest grid point)') : g;
            tr.appendChild(el('td', null, name));
            for (const v of [r.groups, r.singletons]) tr.appendChild(el('td', null, String(v)));
            if (labelled) { tr.appendChild(el('td', null, fmt(r.ari))); tr.appendChild(el('td', null, fmt(r.pairF1))); }
            rows.push(tr);
          }
          table.replaceChildren(...rows);
          $('numbers-note').textContent = 'Components and average linkage are cut exactly at t; the leader is shown at the grid ' +
            'threshold nearest to t (24 quantiles and the rules\' values), as the harness sweeps it.';
        }
        function curves() {
          const box = $('curve'), co = corpus(state.c);
          box.replaceChildren();
          if (!co.labels) { box.appendChild(el('p', null, 'No labels: no ARI.')); return; }
          const sp = D.corpora[state.c].spaces.find((x) => x.space === state.s), [x0, x1] = domain(sp);
          const sx = (x) => M.l + (x - x0) / (x1 - x0) * (W - M.l - M.r), sy = (y) => H - M.b - (y - lo) / (1 - lo) * (H - M.t - M.b);
          const lines = THRESHOLD_GROUPINGS.map((g) => [g, curveOf(state.c, state.s, g)]).filter(([, p]) => p && p.length);
          let lo = 0;
          for (const [, p] of lines) for (const [, a] of p) lo = Math.min(lo, a);
          const root = svg('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img' });
          axisX(root, x0, x1, sx);
          for (const y of [0, 0.5, 1]) svg('text', { x: M.l - 4, y: sy(y) + 4, 'text-anchor': 'end' }, root).textContent = y.toFixed(1);
          lines.forEach(([g, points], k) => {
            const colour = D.colours[g];
            let d = '';
            if (g === 'leader') {
              for (const [t, a] of points) svg('circle', { cx: sx(t), cy: sy(a), r: 2.5, fill: colour }, root);
            } else {
              // A step: above a merge height the partition (and its ARI) is the one before that merge.
              let previous = null;
              for (const [t, a] of points) {
                const x = sx(Math.max(x0, Math.min(x1, t)));
                const at = (y) => 'L' + x.toFixed(1) + ',' + sy(y).toFixed(1);
                d += previous === null ? 'M' + x.toFixed(1) + ',' + sy(a).toFixed(1) : at(previous) + at(a);
                previous = a;
              }
              svg('path', { d, fill: 'none', stroke: colour, 'stroke-width': 1.4 }, root);
            }
            svg('text', { x: W - M.r, y: M.t + 10 + 12 * k, 'text-anchor': 'end', fill: colour }, root).textContent = g;
          });
          cursorLine(root, sx);
          box.appendChild(root);
        }
        function groupsOf(cut) {
          const members = new Map();
          cut.labels.forEach((g, i) => { if (g >= 0) { if (!members.has(g)) members.set(g, []); members.get(g).push(i); } });
          return Array.from(members, ([g, m]) => ({ g, members: m })).sort((x, y) => y.members.length - x.members.length || x.g - y.g);
        }
        // ---- a group's words: class-based TF-IDF as ClassTFIDF computes it ----
        const STOP = new Set(D.stopWords), WORDS_SHOWN = 5;
        /// CountVectorizer's defaults: lower-cased runs of two or more word characters, less the stop words.
        function words(text) {
          const out = [];
          for (const m of text.toLowerCase().matchAll(/[\p{L}\p{Nd}\p{Nl}\p{No}_]{2,}/gu)) if (!STOP.has(m[0])) out.push(m[0]);
          return out;
        }
        /// Each item's words and every word's count over the corpus (f_t: its count over all classes, whatever the cut).
        function corpusWords(co) {
          if (!co.words) {
            co.words = co.raw.texts.map(words);
            co.frequency = new Map();
            co.totalWords = 0;
            for (const ws of co.words) for (const w of ws) { co.frequency.set(w, (co.frequency.get(w) || 0) + 1); co.totalWords++; }
          }
          return co;
        }
        /// The group's WORDS_SHOWN words of largest W = tf · log(1 + A / f_t), A the words per class (noise one class)
        /// rounded down, largest first, a tie by the word.
        function groupWords(co, members, classes) {
          corpusWords(co);
          const counts = new Map();
          let size = 0;
          for (const i of members) for (const w of co.words[i]) { counts.set(w, (counts.get(w) || 0) + 1); size++; }
          const average = Math.floor(co.totalWords / classes);
          return Array.from(counts, ([w, n]) => [w, n / size * Math.log(1 + average / co.frequency.get(w))])
            .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0)).slice(0, WORDS_SHOWN).map((x) => x[0]);
        }
        function majority(co, members) {
          if (!co.labels) return null;
          const counts = new Map();
          let best = -1, bestCount = 0;
          for (const i of members) {
            const v = (counts.get(co.labels[i]) || 0) + 1;
            counts.set(co.labels[i], v);
            if (v > bestCount || (v === bestCount && co.labels[i] < best)) { best = co.labels[i]; bestCount = v; }
          }
          return { label: co.raw.labelNames[best], share: bestCount / members.length };
        }
        function entry(co, i) {
          const li = el('li');
          li.append(el('span', 'id', co.raw.ids[i]), el('span', 'entry', co.raw.texts[i]));
          if (co.labels) li.appendChild(el('span', 'label', '[' + co.raw.labelNames[co.labels[i]] + ']'));
          return li;
        }
        function groupsPanel(cut, groups) {
          const co = corpus(state.c), box = $('groups');
          const noise = cut.labels.reduce((k, g) => k + (g < 0 ? 1 : 0), 0);
          $('groups-title').textContent = shown('Groups at the cursor: ' + groups.length + (noise ? ' and ' + noise + ' noise items' : '') +
            (groups.length > GROUPS_SHOWN ? ' (the ' + GROUPS_SHOWN + ' largest listed)' : ''));
          const classes = new Set(cut.labels).size;
          box.replaceChildren(...groups.slice(0, GROUPS_SHOWN).map((grp, rank) => {
            const div = el('div', 'group' + (state.selected === grp.g ? ' selected' : ''));
            const maj = majority(co, grp.members), head = el('div', 'head', '#' + (rank + 1) + ' · ' + grp.members.length + ' entries');
            if (maj) head.appendChild(el('span', 'share', ' · mostly ' + maj.label + ' (' + Math.round(maj.share * 100) + '%)'));
            grp.words = groupWords(co, grp.members, classes);
            if (grp.words.length) head.appendChild(el('span', 'words', ' · ' + grp.words.join(', ')));
            const ol = el('ol');
            for (const i of cut.central(grp.g, grp.members).slice(0, 3)) ol.appendChild(entry(co, i));
            div.append(head, ol);
            if (state.selected === grp.g) div.appendChild(memberList(co, grp.members));
            div.addEventListener('click', (ev) => {
              if (ev.target.closest('.members')) return;
              state.selected = state.selected === grp.g ? null : grp.g;
              redraw();
            });
            return div;
          }));
        }
        function memberList(co, members) {
          const kept = co.sample ? members.filter((i) => co.inSample[i]) : members, box = el('div', 'members');
          const shownCount = Math.min(kept.length, MEMBERS_SHOWN);
          box.appendChild(el('p', null, 'Members: ' + (shownCount < members.length ? shownCount + ' of ' + members.length +
              (co.sample ? ' (the seeded sample' + (kept.length > MEMBERS_SHOWN ? ', first ' + MEMBERS_SHOWN : '') + ')' : '') :
              'all ' + members.length)));
          const ol = el('ol');
          for (const i of kept.slice(0, MEMBERS_SHOWN)) ol.appendChild(entry(co, i));
          box.appendChild(ol);
          return box;
        }
        function search(cut, groups) {
          const co = corpus(state.c), box = $('search-results'), q = state.query.toLowerCase();
          box.replaceChildren();
          if (!q) return;
          const rank = new Map(groups.map((grp, k) => [grp.g, k]));
          const found = [];
          for (let i = 0; i < co.n && found.length < FOUND_SHOWN; i++) {
            if (co.raw.texts[i].toLowerCase().includes(q) || co.raw.ids[i].toLowerCase().includes(q)) found.push(i);
          }
          const more = found.length === FOUND_SHOWN ? ' (first ' + FOUND_SHOWN + ')' : '';
          box.appendChild(el('p', null, found.length ? 'Where they sit at the cursor' + more + ':' : 'No entry matches.'));
          for (const i of found) {
            const g = cut.labels[i], div = el('div', 'found');
            const size = g < 0 ? 0 : groups[rank.get(g)].members.length;
            const where = g < 0 ? 'noise' : size === 1 ? 'alone' : 'group #' + (rank.get(g) + 1) + ' (' + size + ' entries)';
            div.append(el('span', 'id', co.raw.ids[i]), el('span', 'entry', co.raw.texts[i]), el('span', 'label', '→ ' + where));
            div.addEventListener('click', () => { if (g >= 0) { state.selected = g; redraw(); } });
            box.appendChild(div);
          }
        }
        let mapPoints = [];
        function drawMap(cut, groups) {
          const co = corpus(state.c), sp = space(state.c, state.s), canvas = $('map'), ctx = canvas.getContext('2d');
          const colour = new Map();
          groups.slice(0, PALETTE.length).forEach((grp, k) => { if (grp.members.length > 1) colour.set(grp.g, PALETTE[k]); });
          const items = co.sample ? Array.from(co.sample) : Array.from({ length: co.n }, (_, i) => i);
          let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
          for (const i of items) {
            x0 = Math.min(x0, sp.mapX[i]); x1 = Math.max(x1, sp.mapX[i]); y0 = Math.min(y0, sp.mapY[i]); y1 = Math.max(y1, sp.mapY[i]);
          }
          const w = canvas.width, h = canvas.height, pad = 12, sx = (x1 - x0) || 1, sy = (y1 - y0) || 1;
          ctx.fillStyle = '#ffffff';
          ctx.fillRect(0, 0, w, h);
          mapPoints = [];
          const pass = (selectedOnly) => {
            for (const i of items) {
              const g = cut.labels[i], selected = state.selected !== null && g === state.selected;
              if (selectedOnly !== selected) continue;
              const x = pad + (sp.mapX[i] - x0) / sx * (w - 2 * pad), y = h - pad - (sp.mapY[i] - y0) / sy * (h - 2 * pad);
              ctx.fillStyle = selected ? '#000000' : colour.get(g) || (g < 0 ? '#e0e0e0' : '#b8b8b8');
              ctx.beginPath();
              ctx.arc(x, y, selected ? 3.5 : 2.4, 0, 2 * Math.PI);
              ctx.fill();
              mapPoints.push([x, y, i]);
            }
          };
          pass(false);
          pass(true);
          $('map-note').textContent = 'Coloured by the ten largest groups at the cursor (grey: the rest; pale: noise); ' +
              (co.sample ? 'a seeded sample of ' + items.length + ' of ' + co.n + ' items; ' : '') +
              'hover for the text, click a group to mark it.';
        }
        function hover(ev) {
          const canvas = $('map'), box = canvas.getBoundingClientRect(), tip = $('tooltip');
          const x = (ev.clientX - box.left) * canvas.width / box.width, y = (ev.clientY - box.top) * canvas.height / box.height;
          let best = null, bestD = 64;
          for (const p of mapPoints) { const d = (p[0] - x) ** 2 + (p[1] - y) ** 2; if (d < bestD) { bestD = d; best = p; } }
          if (!best) { tip.hidden = true; return; }
          const co = corpus(state.c), i = best[2];
          const where = co.raw.ids[i] + (co.labels ? ' · ' + co.raw.labelNames[co.labels[i]] : '');
          tip.replaceChildren(el('div', 'entry', co.raw.texts[i]), el('div', 'id', where));
          tip.style.left = (best[0] * box.width / canvas.width + 14) + 'px';
          tip.style.top = (best[1] * box.height / canvas.height + 30) + 'px';
          tip.hidden = false;
        }

        // ---- drawing ----
        function scoresAt(c, s, t) {
          const out = [];
          for (const g of THRESHOLD_GROUPINGS) {
            const cut = cutAt(c, s, g, t);
            if (cut) out.push([g, Object.assign(score(c, cut.labels), { grid: cut.grid, rule: cut.rule })]);
          }
          return out;
        }
        function redraw() {
          const cut = cutAt(state.c, state.s, state.g, state.t) || cutAt(state.c, state.s, 'components', state.t);
          const cuts = scoresAt(state.c, state.s, state.t);
          if (state.g.startsWith('fixed:')) cuts.push([state.g, score(state.c, cut.labels)]);
          $('cursor').value = String(state.t);
          $('cursor-value').textContent = 't = ' + fmt(state.t);
          const groups = groupsOf(cut);
          placeCursors();
          numbers(cuts);
          groupsPanel(cut, groups);
          search(cut, groups);
          drawMap(cut, groups);
          writeAddress();
          const numbersOut = {};
          for (const [g, r] of cuts) numbersOut[g] = r;
          $('state').textContent = JSON.stringify({ corpus: state.c, space: state.s, grouping: state.g, t: state.t, numbers: numbersOut,
            groups: groups.length, sentinel: typeof window.themelabSentinel,
            words: groups.slice(0, GROUPS_SHOWN).map((grp) => ({ first: corpus(state.c).raw.ids[grp.members[0]], words: grp.words })) });
        }
        function render() {
          controls();
          cursorMarks = [];
          histograms();
          curves();
          redraw();
        }
        function setT(t, keepSelection) {
          state.t = t;
          if (!keepSelection) state.selected = null;
          redraw();
        }
        function step(ev) {
          const delta = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 }[ev.key];
          if (!delta) return false;
          ev.preventDefault();
          setT(Math.max(-1, Math.min(1, Math.round((state.t + delta * (ev.shiftKey ? 0.01 : 0.001)) * 1e6) / 1e6)));
          return true;
        }

        // ---- the checks and the benchmark the tests and Experiments/bench/explorer read ----
        /// Every partition the page can show: each rule's cuts, the cuts at every merge height (up to 2 000 items) with the
        /// curves drawn, the leader's grid and the fixed partitions, scored as the cursor scores them.
        function check() {
          return D.corpora.map((co, c) => ({ name: co.name, source: co.source, spaces: co.spaces.map((sp) => {
            const s = sp.space, x = space(c, s), atHeights = {}, curvesDrawn = {};
            for (const g of ['components', 'average']) {
              const m = x[MERGES[g]];
              if (!m || co.items > 2000) continue;
              atHeights[g] = Array.from(new Set(m.h)).sort((a, b) => b - a)
                .map((t) => Object.assign({ threshold: t }, score(c, cutAt(c, s, g, t).labels)));
              curvesDrawn[g] = curveOf(c, s, g);
            }
            return { space: s, atHeights, curves: curvesDrawn,
              rules: sp.rules.map((r) => ({ rule: r.rule, value: r.value, components: score(c, cutAt(c, s, 'components', r.value).labels),
                average: x.average ? score(c, cutAt(c, s, 'average', r.value).labels) : null })),
              leader: x.leader.map((p) =>
                Object.assign({ threshold: p.threshold, rule: p.rule }, score(c, cutAt(c, s, 'leader', p.threshold).labels))),
              fixed: x.fixed.map((p) => Object.assign({ grouping: p.grouping }, score(c, p.labels))) };
          }) }));
        }
        function bench() {
          const firstRender = performance.now(), steps = [];
          for (let k = 0; k < 21; k++) {
            const start = performance.now();
            setT(state.t + (k % 2 ? -0.001 : 0.001));
            void document.body.offsetHeight;
            steps.push(performance.now() - start);
          }
          $('bench').textContent = JSON.stringify({ firstRender, steps: steps.slice(1), bytes: $('data').textContent.length });
        }

        function main() {
          const q = readAddress();
          header();
          $('view').addEventListener('change', () => { state.c = parseInt($('view').value, 10); state.s = null; state.selected = null;
              const spaces = D.corpora[state.c].spaces.map((x) => x.space);
              state.s = spaces.includes('centred') ? 'centred' : spaces[0];
              render();
            });
          $('grouping').addEventListener('change', () => { state.g = $('grouping').value; state.selected = null; redraw(); });
          $('cursor').addEventListener('input', () => setT(parseFloat($('cursor').value)));
          $('cursor').addEventListener('keydown', step);
          document.addEventListener('keydown', (ev) => { if (!ev.target.closest('input, select, textarea')) step(ev); });
          $('search').value = state.query;
          $('search').addEventListener('input', () => { state.query = $('search').value; redraw(); });
          $('map').addEventListener('pointermove', hover);
          $('map').addEventListener('pointerleave', () => { $('tooltip').hidden = true; });
          render();
          void document.body.offsetHeight;
          if (q.get('check') === '1') $('check').textContent = JSON.stringify(check());
          if (q.get('bench') === '1') bench();
        }
        main();
        })();
        """#
}
