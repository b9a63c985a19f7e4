/// The report's inline style sheet and hover script. Both are written without `<`, `&` and `//`
/// so that the page stays well-formed XML and names nothing outside itself.
enum ReportStyle {
    /// Light colours, dark colours, and which apply: `auto` follows the reader's system.
    static func css(theme: ReportTheme) -> String {
        let light =
            "--bg:#ffffff;--fg:#1b1f24;--muted:#57606a;--panel:#f6f8fa;--rule:#d0d7de;--grid:#e4e8ec;--line:#0a5bc4;"
            + "--band:rgba(10,91,196,0.16);--floor:#b3261e;--good:#17692f;--bad:#b3261e;--warn:#8a5a00;--bar:#0a5bc4;--bar2:#8c959f;"
        let dark =
            "--bg:#0f1419;--fg:#e6edf3;--muted:#9da7b3;--panel:#161b22;--rule:#30363d;--grid:#222a33;--line:#6cb6ff;"
            + "--band:rgba(108,182,255,0.30);--floor:#ff7b72;--good:#56d364;--bad:#ff7b72;--warn:#e3b341;--bar:#6cb6ff;--bar2:#6e7681;"
        let themes: String
        switch theme {
        case .light: themes = ":root{\(light)color-scheme:light}"
        case .dark: themes = ":root{\(dark)color-scheme:dark}"
        case .auto: themes = ":root{\(light)color-scheme:light dark}@media (prefers-color-scheme:dark){:root{\(dark)}}"
        }
        return themes + layout
    }

    private static let layout = """
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
        main{max-width:62rem;margin:0 auto;padding:1rem 1rem 3rem}
        h1{font-size:1.6rem;margin:.5rem 0 0}
        h2{font-size:1.2rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--rule);padding-bottom:.25rem}
        .meta,.note,figcaption,.empty{color:var(--muted);font-size:.9rem}
        .headline{background:var(--panel);border:1px solid var(--rule);border-radius:8px;padding:1rem 1.25rem;margin-top:1rem}
        .answer{font-size:2.2rem;font-weight:700;font-variant-numeric:tabular-nums;line-height:1.2}
        .why{margin:.5rem 0 0}
        .why li,.affordable li{margin:.1rem 0}
        ul{padding-left:1.25rem}
        .num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
        .scroll{overflow-x:auto}
        table{border-collapse:collapse;width:100%;font-size:.92rem}
        th,td{padding:.3rem .5rem;border-bottom:1px solid var(--rule);text-align:left;vertical-align:middle}
        th{font-weight:600;color:var(--muted)}
        tr.overdue td{color:var(--bad);font-weight:600}
        .neg{color:var(--bad)}
        .pos{color:var(--good)}
        details{margin:.5rem 0}
        summary{cursor:pointer;color:var(--muted)}
        figure{margin:1rem 0;break-inside:avoid;page-break-inside:avoid}
        svg.chart{width:100%;height:auto;display:block}
        svg text{fill:var(--muted);font-size:12px}
        .axis .grid{stroke:var(--grid)}
        .axis .zero{stroke:var(--rule);stroke-width:1.5}
        .axis .tick{stroke:var(--rule)}
        .line{fill:none;stroke:var(--line);stroke-width:2;stroke-linejoin:round}
        .band{fill:var(--band);stroke:none}
        .floor line{stroke:var(--floor);stroke-dasharray:6 4;stroke-width:1.5}
        .floor text{fill:var(--floor)}
        .binding circle{fill:var(--bg);stroke:var(--floor);stroke-width:3}
        .binding text{fill:var(--floor);font-weight:600}
        .month-lows circle{fill:var(--line)}
        .landmarks circle{stroke:var(--bg);stroke-width:1}
        .landmarks .inflow circle{fill:var(--good)}
        .landmarks .outflow circle{fill:var(--bad)}
        .landmarks text{font-size:11px;font-weight:600}
        .cursor{stroke:var(--muted);stroke-dasharray:2 3}
        .day{white-space:nowrap}
        .aside{display:block;white-space:normal;color:var(--muted);font-size:.8rem}
        svg text.unit{font-weight:600}
        h3{font-size:1rem;margin:1.25rem 0 .25rem}
        .readout{min-height:1.5em;margin:0;font-variant-numeric:tabular-nums;color:var(--muted);font-size:.9rem}
        .legend{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;font-size:.85rem;color:var(--muted);margin:.25rem 0}
        .swatch{display:inline-block;width:1.5em;height:.6em;vertical-align:middle;margin-right:.3em;border-radius:2px}
        .swatch.line{background:var(--line)}
        .swatch.band{background:var(--band)}
        .swatch.floor{border-top:2px dashed var(--floor);height:0}
        .swatch.binding{width:.8em;height:.8em;border:3px solid var(--floor);border-radius:50%}
        .keys{columns:2 18rem;font-size:.85rem;padding-left:1.5rem}
        .bar{position:relative;height:.75rem;background:var(--grid);border-radius:4px;min-width:6rem;overflow:hidden}
        .bar span{position:absolute;left:0;top:0;bottom:0;background:var(--bar);border-radius:4px}
        .bar span.over{background:var(--bad)}
        .bar span.last{background:var(--bar2)}
        .bar i{position:absolute;top:-2px;bottom:-2px;width:2px;background:var(--fg)}
        .pair .bar{height:.5rem;margin:2px 0}
        svg.spark{width:8rem;height:2rem;display:block}
        svg.spark polyline{fill:none;stroke:var(--line);stroke-width:1.5}
        svg.spark line{stroke:var(--floor);stroke-dasharray:3 2}
        footer{margin-top:3rem;color:var(--muted);font-size:.85rem}
        @media (max-width:40rem){body{font-size:15px}.answer{font-size:1.7rem}th,td{padding:.25rem .3rem}.keys{columns:1}
        .optional{display:none}svg.chart text{font-size:22px}svg.chart text.minor,svg.chart text.unit,.landmarks text{display:none}
        .month-lows circle{r:4px}.landmarks circle{r:6px}.binding circle{r:9px}.line{stroke-width:3}}
        @media print{@page{size:A4;margin:12mm}body{background:#fff;color:#000;font-size:11pt}main{max-width:none;padding:0}
        .headline{border-color:#999}.readout{display:none}
        figure,svg,tr,.headline{break-inside:avoid;page-break-inside:avoid}h2{break-after:avoid}}
        """

    /// The colours of a chart written to an `.svg` file of its own (the light theme).
    static let standaloneChart = """
        svg{background:#fff;font-family:system-ui,sans-serif}text{fill:#57606a;font-size:12px}
        .axis .grid{stroke:#e4e8ec}.axis .zero{stroke:#d0d7de;stroke-width:1.5}.axis .tick{stroke:#d0d7de}
        .line{fill:none;stroke:#0a5bc4;stroke-width:2;stroke-linejoin:round}.band{fill:rgba(10,91,196,0.16)}
        .floor line{stroke:#b3261e;stroke-dasharray:6 4;stroke-width:1.5}.floor text{fill:#b3261e}
        .binding circle{fill:#fff;stroke:#b3261e;stroke-width:3}.binding text{fill:#b3261e;font-weight:600}
        .month-lows circle{fill:#0a5bc4}.landmarks circle{stroke:#fff}.landmarks .inflow circle{fill:#17692f}
        .landmarks .outflow circle{fill:#b3261e}.landmarks text{font-size:11px;font-weight:600}.cursor{display:none}
        """

    /// Hover read-outs on the balance chart: the day (or days) under the pointer and the balance.
    /// The page says everything without it.
    static let script = """
        (function(){
        var svg=document.getElementById('balance-chart');var data=document.getElementById('balance-data');
        var out=document.getElementById('balance-readout');var cursor=document.getElementById('balance-cursor');
        if(!svg||!data||!out){return;}
        var d=JSON.parse(data.textContent);
        function money(v){var s=Math.abs(v).toString();while(d.exponent>=s.length){s='0'+s;}
        var i=s.slice(0,s.length-d.exponent),f=s.slice(s.length-d.exponent);
        i=i.replace(/\\B(?=(\\d{3})+(?!\\d))/g,'\\u00a0');return (0>v?'-':'')+i+(d.exponent?'.'+f:'');}
        function day(offset){return new Date(d.start+offset*864e5).toISOString().slice(0,10);}
        svg.addEventListener('mousemove',function(e){
        var r=svg.getBoundingClientRect();var x=(e.clientX-r.left)/r.width*d.width;
        var c=Math.round((x-d.left)/d.plot*(d.columns.length-1));c=Math.max(0,Math.min(d.columns.length-1,c));
        var col=d.columns[c];
        out.textContent=col[0]===col[1]?day(col[0])+': '+money(col[2]):day(col[0])+' to '+day(col[1])+': '+money(col[2])+' to '+money(col[3]);
        if(cursor){var cx=d.left+(col[0]+col[1])/2/d.last*d.plot;cursor.setAttribute('x1',cx);cursor.setAttribute('x2',cx);cursor.setAttribute('visibility','visible');}
        });
        svg.addEventListener('mouseleave',function(){out.textContent='';if(cursor){cursor.setAttribute('visibility','hidden');}});
        })();
        """
}

/// The colours of a report: the reader's system's (`auto`), light or dark.
public enum ReportTheme: String, Sendable, CaseIterable {
    case auto, light, dark
}
