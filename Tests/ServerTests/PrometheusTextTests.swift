import Testing

@testable import Server

/// The exposition format as written: declarations, escaping, and cumulative histogram buckets.
@Suite struct PrometheusTextTests {
    @Test func aFamilyIsDeclaredThenItsSamplesWithEscapedLabels() {
        var page = PrometheusText()
        page.family("x_total", .counter, help: "Line one\nback\\slash", [([("a", "say \"hi\"\n")], 3), ([], 0.25)])
        #expect(
            page.text == """
                # HELP x_total Line one\\nback\\\\slash
                # TYPE x_total counter
                x_total{a="say \\"hi\\"\\n"} 3
                x_total 0.25

                """)
    }

    @Test func histogramBucketsAddUpAndEndAtInfEqualToTheCount() {
        var counts = HistogramCounts()
        for nanoseconds: UInt64 in [500_000, 2_000_000, 2_000_000, 20_000_000_000] { counts.observe(nanoseconds: nanoseconds) }
        var page = PrometheusText()
        page.histograms("d_seconds", help: "D.", [([("type", "Ping")], counts)])
        let lines = page.text.split(separator: "\n")
        #expect(lines.contains("d_seconds_bucket{type=\"Ping\",le=\"0.001\"} 1"))
        #expect(lines.contains("d_seconds_bucket{type=\"Ping\",le=\"0.0025\"} 3"))
        #expect(lines.contains("d_seconds_bucket{type=\"Ping\",le=\"10\"} 3"))
        #expect(lines.contains("d_seconds_bucket{type=\"Ping\",le=\"+Inf\"} 4"))
        #expect(lines.contains("d_seconds_count{type=\"Ping\"} 4"))
        #expect(lines.contains("d_seconds_sum{type=\"Ping\"} 20.0045"))
    }

    @Test func numbersAreIntegersWhenWholeAndFloatsOtherwise() {
        #expect(PrometheusText.number(3) == "3")
        #expect(PrometheusText.number(-12) == "-12")
        #expect(PrometheusText.number(0.0025) == "0.0025")
        #expect(PrometheusText.number(.infinity) == "+Inf")
    }
}
