package rocelab.congestion.dctcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.fabric.congestion.AckFeedback;
import rocelab.fabric.congestion.RateCause;
import rocelab.fabric.congestion.RateListener;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketPool;

/** The DCTCP-style rule against values worked out by hand from the reference (mechanisms section 8.3). */
class DctcpControlTest {
    private static final long G100 = 100_000_000_000L;
    private static final double G = 1.0 / 16;
    /** 615 Mb/s x 10 us = 768.75 B per window. */
    private static final double AI_BYTES = 615e6 * 10e-6 / 8;

    private final PacketPool pool = new PacketPool(16);
    private final AckFeedback feedback = new AckFeedback();
    private final DctcpControl cc = new DctcpControl(
            new DctcpParameters(G, 1.0, 615_000_000L, Time.us(10), 1_000_000_000L, G100));

    private void ack(long newly, long unacked, boolean echo) {
        Packet p = pool.acquire().ecnEcho(echo);
        cc.onAck(0, feedback.fill(newly, Time.us(12), 0, unacked, p));
        pool.release(p);
    }

    @Test
    void shouldStartWithOneBdpWindowPacedAtLineRateWhenBaseRttIsGiven() {
        assertThat(cc.windowBytes()).isEqualTo(125_000);
        assertThat(cc.rateBps()).isEqualTo(G100);
        assertThat(cc.alpha()).isEqualTo(1.0);
    }

    @Test
    void shouldCutByHalfAlphaOncePerCwrPeriodWhenAcksEchoEcn() {
        ack(1000, 124_000, false); // first ACK: the window ends at 125 000 B sent; AI is capped at B x T
        assertThat(cc.congestionWindowBytes()).isEqualTo(125_000);
        ack(1000, 124_000, true); // first echo: W x (1 - 1/2), CWR until 126 000 B are acked
        assertThat(cc.congestionWindowBytes()).isEqualTo(62_500);
        assertThat(cc.rateBps()).as("paced at W / T").isEqualTo(50_000_000_000L);
        assertThat(cc.inCwr()).isTrue();
        ack(1000, 124_000, true);
        assertThat(cc.congestionWindowBytes()).as("one cut per CWR period").isEqualTo(62_500);
        // 126 000 B acked closes the first window: F = 2 000 marked / 126 000 acked bytes.
        ack(123_000, 10_000, false);
        double alpha = (1 - G) + G * (2_000.0 / 126_000);
        assertThat(cc.alpha()).isCloseTo(alpha, within(1e-12));
        assertThat(cc.congestionWindowBytes()).as("no increase while in CWR").isEqualTo(62_500);
        ack(10_000, 0, false); // 136 000 acked: CWR over, but the window (ends at 136 000) is still open
        assertThat(cc.inCwr()).isFalse();
        assertThat(cc.congestionWindowBytes()).isEqualTo(62_500);
        ack(1_000, 20_000, false); // the window closes unmarked: alpha decays, W + 615 Mb/s x T
        alpha *= 1 - G;
        assertThat(cc.alpha()).isCloseTo(alpha, within(1e-12));
        assertThat(cc.congestionWindowBytes()).isCloseTo(62_500 + AI_BYTES, within(1e-9));
        ack(1_000, 19_000, true); // inside the next window (ends at 157 000 B): cut with the current alpha
        assertThat(cc.congestionWindowBytes()).isCloseTo((62_500 + AI_BYTES) * (1 - alpha / 2), within(1e-9));
        assertThat(cc.rateCuts()).isEqualTo(2);
    }

    @Test
    void shouldKeepWindowAtMinRateTimesRttWhenMarksNeverStop() {
        for (int i = 0; i < 200; i++) {
            ack(10_000, 0, true);
        }
        assertThat(cc.congestionWindowBytes()).as("1 Gb/s x 10 us").isEqualTo(1_250);
        assertThat(cc.rateBps()).isEqualTo(1_000_000_000L);
        assertThat(cc.alpha()).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void shouldLearnBaseRttAndOpenWithOneBdpWhenNoneIsGiven() {
        DctcpControl learning = new DctcpControl(DctcpParameters.defaults(G100));
        assertThat(learning.windowBytes()).isEqualTo(Long.MAX_VALUE);
        assertThat(learning.rateBps()).isEqualTo(G100);
        learning.onAck(0, feedback.fill(1000, Time.us(8), 0, 9_000, null));
        assertThat(learning.baseRttPs()).isEqualTo(Time.us(8));
        assertThat(learning.windowBytes()).isEqualTo(100_000);
    }

    @Test
    void shouldUseReferenceDefaultsAndRejectUnknownKeysWhenResolvingOverrides() {
        DctcpParameters d = DctcpParameters.defaults(G100);
        assertThat(d.g()).isEqualTo(1.0 / 16);
        assertThat(d.initialAlpha()).isEqualTo(1.0);
        assertThat(d.aiRateBps()).isEqualTo(615_000_000L);
        assertThat(d.minRateBps()).isEqualTo(1_000_000_000L);
        assertThat(DctcpParameters.resolve(Map.of("g", 1.0 / 256), G100).g()).isEqualTo(1.0 / 256);
        assertThatThrownBy(() -> DctcpParameters.resolve(Map.of("k", 1.0), G100)).hasMessageContaining("'k'");
    }

    /**
     * Without a given base RTT, the first ACK's RTT sample sets the window (a BDP): the rate change it reports names
     * that sample, not a window of data acknowledged (the journey said so of a window not yet sent).
     */
    @Test
    void shouldNameTheRttSampleAsTheCauseOfTheFirstWindowWhenTheBaseRttIsLearnt() {
        List<RateCause> causes = new ArrayList<>();
        RateListener listener = (now, qp, from, to, window, cause, value, index) ->
                causes.add(cause);
        DctcpControl learnt = new DctcpControl(new DctcpParameters(G, 1.0, 615_000_000L, 0, 1_000_000_000L, G100),
                listener, 0);
        Packet p = pool.acquire().ecnEcho(false);
        learnt.onAck(0, feedback.fill(1000, Time.us(12), 0, 124_000, p));
        pool.release(p);
        assertThat(learnt.windowBytes()).isEqualTo(150_000);
        assertThat(causes).containsExactly(RateCause.RTT_SAMPLE);
    }

    /**
     * The additive step comes at the end of any window of data acknowledged outside CWR, whether or not ACKs in it
     * echoed ECN: echoes that arrive during the CWR period after a cut are counted in F but cut nothing, and the
     * window they fall in still grows when it closes after CWR (as HPCC ns-3 {@code HandleAckDctcp} and Linux do).
     * The cause must not say the window had no marks (the journey said "window of data without marks" of it).
     */
    @Test
    void shouldNotCallAWindowUnmarkedWhenItsEchoesCameDuringCwr() {
        List<RateCause> causes = new ArrayList<>();
        RateListener listener = (now, qp, from, to, window, cause, value, index) -> causes.add(cause);
        DctcpControl dctcp = new DctcpControl(
                new DctcpParameters(G, 1.0, 615_000_000L, Time.us(10), 1_000_000_000L, G100), listener, 0);
        Packet clean = pool.acquire().ecnEcho(false);
        Packet marked = pool.acquire().ecnEcho(true);
        dctcp.onAck(0, feedback.fill(1_000, Time.us(12), 0, 124_000, clean)); // the first window ends at 125 000 B
        dctcp.onAck(0, feedback.fill(1_000, Time.us(12), 0, 130_000, marked)); // cut; CWR until 132 000 B acked
        dctcp.onAck(0, feedback.fill(124_000, Time.us(12), 0, 20_000, clean)); // window closes in CWR; next ends at 146 000
        dctcp.onAck(0, feedback.fill(1_000, Time.us(12), 0, 20_000, marked)); // an echo in CWR, in the new window
        dctcp.onAck(0, feedback.fill(6_000, Time.us(12), 0, 20_000, clean)); // CWR over at 133 000
        causes.clear();
        double alphaBefore = dctcp.alpha();
        dctcp.onAck(0, feedback.fill(14_000, Time.us(12), 0, 20_000, clean)); // the window closes outside CWR
        pool.release(clean);
        pool.release(marked);
        assertThat(dctcp.alpha()).as("F = 1 000 / 21 000 > 0: the window had a mark")
                .isCloseTo((1 - G) * alphaBefore + G * (1_000.0 / 21_000), within(1e-12));
        assertThat(causes).containsExactly(RateCause.WINDOW_GROWTH);
        assertThat(RateCause.WINDOW_GROWTH.text()).doesNotContain("without marks").contains("outside a CWR period");
    }

    /**
     * A later, lower RTT sample lowers T: the pacing rate W / T rises while the window stays (it is under the new
     * cap). The cause named must not say the sample set the window (a journey said "sets the window and pacing"
     * beside an unchanged window).
     */
    @Test
    void shouldNotSayALowerRttSampleSetTheWindowWhenOnlyThePacingMoved() {
        List<long[]> changes = new ArrayList<>();
        List<RateCause> causes = new ArrayList<>();
        RateListener listener = (now, qp, from, to, window, cause, value, index) -> {
            changes.add(new long[] {from, to, window});
            causes.add(cause);
        };
        DctcpControl learnt = new DctcpControl(new DctcpParameters(G, 1.0, 615_000_000L, 0, 1_000_000_000L, G100),
                listener, 0);
        Packet marked = pool.acquire().ecnEcho(true);
        learnt.onAck(0, feedback.fill(1_000, Time.us(12), 0, 149_000, marked)); // T = 12 us, W = 150 000, then cut
        long window = learnt.windowBytes();
        changes.clear();
        causes.clear();
        Packet clean = pool.acquire().ecnEcho(false);
        learnt.onAck(0, feedback.fill(1_000, Time.us(10), 0, 149_000, clean)); // in CWR: only T moves, to 10 us
        pool.release(marked);
        pool.release(clean);
        assertThat(learnt.windowBytes()).as("the window is under the new cap of 125 000 B").isEqualTo(window);
        assertThat(causes).containsExactly(RateCause.RTT_SAMPLE);
        assertThat(changes.get(0)).as("paced at 75 000 B / 10 us, was / 12 us; the window unchanged")
                .containsExactly(50_000_000_000L, 60_000_000_000L, window);
        assertThat(RateCause.RTT_SAMPLE.text()).doesNotContain("window and pacing");
    }
}
