/// The explorer page's markup skeleton (filled by `ExplorerScript`) and its one inline style block, allowed by hash.
enum ExplorerStyle {
    static let skeleton = """
        <header>
        <h1 id="title"></h1>
        <p id="made"></p>
        <details id="provenance"><summary>Provenance</summary><pre id="provenance-text"></pre></details>
        <p id="sampling" hidden></p>
        <p id="notes"></p>
        </header>
        <section id="controls" aria-label="View and threshold">
        <label>Corpus and vectors <select id="view"></select></label>
        <span id="spaces" role="group" aria-label="Space"></span>
        <label>Grouping <select id="grouping"></select></label>
        <span class="cursor"><label for="cursor">Threshold t</label>
        <input id="cursor" type="range" min="-1" max="1" step="any" aria-describedby="cursor-help">
        <output id="cursor-value" for="cursor"></output></span>
        <span id="rule-buttons" role="group" aria-label="Jump to a rule's threshold"></span>
        <p id="cursor-help">Drag on a histogram, use the slider, or press ← → (Shift: ten times as far); the view is in the
        address, so a link to it shows the same.</p>
        </section>
        <section id="histograms" aria-label="Similarity histograms"></section>
        <section id="numbers-row">
        <div><h2>At the cursor</h2><table id="numbers"></table><p id="numbers-note"></p></div>
        <div><h2>ARI against the threshold</h2><div id="curve"></div></div>
        </section>
        <section id="groups-row">
        <div id="groups-panel"><h2 id="groups-title">Groups</h2>
        <input id="search" type="search" placeholder="Find an entry (text or id)" aria-label="Find an entry">
        <div id="search-results"></div><div id="groups"></div></div>
        <div id="map-panel"><h2>Map (first two principal axes)</h2><canvas id="map" width="560" height="440"></canvas>
        <p id="map-note"></p><div id="tooltip" hidden></div></div>
        </section>
        <svg id="svg-namespace" width="0" height="0" aria-hidden="true"></svg>
        <pre id="state" hidden></pre><pre id="check" hidden></pre><pre id="bench" hidden></pre>
        """

    static let source = """
        body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 1.2em 2em;color:#111;background:#fff}
        h1{font-size:1.3em;margin:.6em 0 .2em}h2{font-size:1em;margin:.6em 0 .3em}
        #made,#notes,#sampling,#cursor-help,#numbers-note,#map-note{color:#444;margin:.2em 0;font-size:.92em}
        #provenance pre{white-space:pre-wrap;font-size:.85em;background:#f6f6f6;padding:.5em}
        #controls{display:flex;flex-wrap:wrap;gap:.5em 1.2em;align-items:center;padding:.5em 0;border-bottom:1px solid #ddd}
        #controls select,#controls button{font:inherit}
        #spaces button,#rule-buttons button{border:1px solid #999;background:#fff;padding:.1em .5em;margin:0 .15em;border-radius:3px;
        cursor:pointer}
        #spaces button[aria-pressed=true]{background:#0072B2;color:#fff;border-color:#0072B2}
        .cursor{display:inline-flex;align-items:center;gap:.4em}#cursor{width:22em}
        #cursor-value{font-variant-numeric:tabular-nums;min-width:6em;font-weight:600}
        .swatch{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:-.05em}
        #cursor-help{flex-basis:100%}
        #histograms{display:flex;flex-wrap:wrap;gap:1em;padding:.5em 0}
        .histogram{border:1px solid #ddd;padding:.3em;cursor:crosshair}.histogram.active{border-color:#0072B2;border-width:2px}
        .histogram h3{font-size:.95em;margin:.1em .3em}.legend{font-size:.85em;color:#444;margin:0 .3em}
        svg text{font:11px system-ui,sans-serif}
        #numbers-row,#groups-row{display:flex;flex-wrap:wrap;gap:2em}
        #numbers{border-collapse:collapse;font-variant-numeric:tabular-nums}
        #numbers th,#numbers td{border-bottom:1px solid #ddd;padding:.2em .6em;text-align:right}
        #numbers th:first-child,#numbers td:first-child{text-align:left}
        #numbers tr.active{background:#eef6fb}
        #groups-panel{flex:1 1 26em;min-width:22em;max-width:40em}
        #numbers-row>div:first-child{max-width:36em}
        #search{width:100%;font:inherit;padding:.2em;margin-bottom:.4em}
        .group{border-top:1px solid #e3e3e3;padding:.3em .2em;cursor:pointer}.group:hover{background:#f7f7f7}
        .group.selected{background:#eef6fb}
        .group .head{font-weight:600}.group .head .share{font-weight:400;color:#444}
        .group .head .words{font-weight:400;color:#444;font-style:italic}
        .group ol{margin:.2em 0 .2em 1.4em;padding:0}.group li{margin:0}
        .members{max-height:18em;overflow:auto;border-left:3px solid #0072B2;margin:.3em 0 .3em .2em;padding-left:.5em}
        .entry{unicode-bidi:isolate}.id{color:#666;font-size:.85em;margin-right:.4em;unicode-bidi:isolate}
        .label{color:#555;font-size:.85em;margin-left:.4em;unicode-bidi:isolate}
        .found{padding:.15em .2em;cursor:pointer}.found:hover{background:#f3f3f3}
        #map-panel{position:relative;flex:0 1 562px;min-width:0}#map{border:1px solid #ddd;max-width:100%}
        #tooltip{position:absolute;background:#fff;border:1px solid #888;padding:.3em .5em;max-width:28em;pointer-events:none;
        box-shadow:0 1px 4px rgba(0,0,0,.2);font-size:.9em}
        """
}
