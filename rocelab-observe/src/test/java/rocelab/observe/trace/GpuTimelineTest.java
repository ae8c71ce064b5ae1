package rocelab.observe.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** timeline.json's text: the events written directly are the bytes the map-per-event rendering gave. */
class GpuTimelineTest {
    /**
     * Spans, overlapping compute and communication (extra lanes), an empty and a missing args map, arguments of every
     * kind, a name that needs escaping and an arrow; the golden file was written by the map-per-event rendering
     * (main at 82ff1a1).
     */
    @Test
    void shouldWriteTheSameTraceAsTheMapPerEventRendering() throws Exception {
        GpuTimeline t = new GpuTimeline();
        t.gpu(0, 0, "gpu 0");
        t.gpu(0, 1, "gpu \"1\"");
        t.gpu(1, 8, "gpu 8");
        t.span(0, "iteration", "iteration 0", 0, 5_000_000, GpuTimeline.args("iteration", 0));
        t.compute(0, "fwd", 1_000, 2_500_001, GpuTimeline.args("layer", 3, "ms", 1.25));
        t.compute(0, "fwd2", 2_000, 3_000_000, null);
        int s = t.comm(0, "send", "send to 8", 2_500_001, 4_000_000, GpuTimeline.args("bytes", 1048576L, "peer",
                "gpu 8"));
        t.comm(0, "allreduce", "allreduce dp", 2_600_000, 4_100_000, GpuTimeline.args());
        int r = t.comm(8, "recv", "recv from 0", 2_400_000, 4_200_000, GpuTimeline.args("x", null));
        t.comm(1, "recv", "zero", 7, 7, null);
        t.compute(8, "bwd\tx", 123_456_789_012L, 123_456_789_013L, GpuTimeline.args("list", List.of(1, "a")));
        t.arrow("p2p 0->8", s, r);

        String golden;
        try (InputStream in = getClass().getResourceAsStream("timeline-golden.json")) {
            golden = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(t.json()).isEqualTo(golden);
    }

    @Test
    void shouldWriteMicrosecondsAsBigDecimalsPlainText() {
        SplittableRandom random = new SplittableRandom(3);
        long[] edges = {0, 1, -1, 999_999, 1_000_000, -1_000_000, 1_000_001, -999_999, Long.MAX_VALUE, Long.MIN_VALUE,
            Long.MIN_VALUE + 1, 123_456_789_012L};
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            long ps = i < edges.length ? edges[i] : random.nextLong() >> random.nextInt(64);
            b.setLength(0);
            GpuTimeline.us(b, ps);
            assertThat(b.toString()).as("%d ps", ps).isEqualTo(BigDecimal.valueOf(ps, 6).toPlainString());
        }
    }

    /** A timeline of random slices, names with characters of two and three bytes in UTF-8, and arrows. */
    private static GpuTimeline randomTimeline(long seed, int slices) {
        SplittableRandom random = new SplittableRandom(seed);
        GpuTimeline t = new GpuTimeline();
        for (int h = 0; h < 16; h++) {
            t.gpu(h / 8, h, "gpu " + h + " \u00e9\u2192");
        }
        int last = -1;
        for (int i = 0; i < slices; i++) {
            int host = random.nextInt(16);
            long start = random.nextLong(0, 1_000_000_000L);
            long end = start + random.nextLong(0, 50_000_000L);
            String name = "step " + i + (random.nextBoolean() ? " \u00fc" : " \u20ac\u00df");
            int s = random.nextBoolean() ? t.compute(host, name, start, end, GpuTimeline.args("i", i, "x", 1.5))
                    : t.comm(host, "send", name, start, end, GpuTimeline.args("peer", "gpu \u00e9"));
            if (last >= 0 && random.nextInt(4) == 0) {
                t.arrow("arrow \u2192 " + i, last, s);
            }
            last = s;
        }
        return t;
    }

    /**
     * Rendered ahead (the run renders its trace before the ideal bound's join), the trace has the same bytes and text
     * as written at once, over more than one chunk and with multi-byte characters that fall across chunk edges.
     */
    @Test
    void shouldWriteTheSameBytesWhenRenderedAhead() throws Exception {
        for (long seed = 1; seed <= 3; seed++) {
            GpuTimeline direct = randomTimeline(seed, 12_000);
            GpuTimeline ahead = randomTimeline(seed, 12_000);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            direct.writeJson(expected);
            ahead.render();
            ByteArrayOutputStream actual = new ByteArrayOutputStream();
            ahead.writeJson(actual);

            assertThat(expected.size()).isGreaterThan(2 << 20);
            assertThat(actual.toByteArray()).isEqualTo(expected.toByteArray());
            assertThat(ahead.json()).isEqualTo(new String(expected.toByteArray(), StandardCharsets.UTF_8));
            assertThat(ahead.isEmpty()).isFalse();
        }
    }

    @Test
    void shouldRefuseSlicesOnceRendered() {
        GpuTimeline t = randomTimeline(5, 10);
        t.render();

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.compute(0, "late", 0, 1, null))
                .isInstanceOf(IllegalStateException.class);
    }
}
