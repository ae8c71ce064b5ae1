package rocelab.scenario.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.probe.NicCounter;

/**
 * Selective repeat over a wire that drops and reorders at random: every posted byte is placed exactly once, every
 * message is delivered and completed exactly once and in order, only what was lost is sent again, and every pooled
 * packet comes back. The same seed gives the same run.
 */
class SelectiveRepeatPropertyTest {
    private static final int MTU = 1000;

    /** MTU 1000, ACK timeout 4.096 us x 2^5 = 131 us, ooo with a 256-PSN window and a reordering threshold of 8. */
    private static NicParameters ooo() {
        return new NicParameters(MTU, 1, 5, 7, 26, 3, true, -1, true, 256, 8);
    }

    private static LossyWire run(NicParameters params, double drop, long jitterPs, long seed, List<Integer> sizes) {
        LossyWire w = new LossyWire(params, drop, jitterPs, seed);
        for (int i = 0; i < sizes.size(); i++) {
            w.post(sizes.get(i), i);
        }
        w.sim.runUntil(1_000_000_000_000L);
        return w;
    }

    @Property(tries = 40)
    void shouldRecoverEveryByteExactlyOnceUnderRandomDrops(
            @ForAll @IntRange(min = 0, max = 15) int dropPercent,
            @ForAll @LongRange(min = 1, max = 1_000_000) long seed,
            @ForAll @IntRange(min = 0, max = 3_000) int jitterNs,
            @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 1, max = 200_000) Integer> sizes) {
        LossyWire w = run(ooo(), dropPercent / 100.0, jitterNs * 1000L, seed, sizes);
        QueuePair qp = w.qp;
        assertThat(qp.selectiveRepeat()).isTrue();
        assertThat(w.errors).as("QP errors").isZero();
        List<Long> inOrder = new ArrayList<>();
        for (long i = 0; i < sizes.size(); i++) {
            inOrder.add(i);
        }
        assertThat(w.delivered).as("each message delivered once, in posting order").isEqualTo(inOrder);
        assertThat(w.completed).as("each message completed once, in posting order").isEqualTo(inOrder);
        long posted = sizes.stream().mapToLong(Integer::longValue).sum();
        assertThat(w.receiver.counter(NicCounter.RX_DELIVERED_BYTES)).as("bytes placed").isEqualTo(posted);
        assertThat(w.misplaced).as("packets whose placement offset is not their place").isZero();
        assertThat(qp.expectedPsn()).isEqualTo(qp.postedPsns());
        assertThat(qp.sndUna()).isEqualTo(qp.postedPsns());

        long sent = w.sender.counter(NicCounter.TX_DATA_PACKETS);
        long resent = w.sender.counter(NicCounter.RETRANSMITTED_PACKETS);
        long received = w.receiver.counter(NicCounter.RX_DATA_PACKETS);
        long duplicates = w.receiver.counter(NicCounter.DUPLICATE_REQUEST);
        assertThat(sent).as("originals + retransmissions").isEqualTo(qp.postedPsns() + resent);
        assertThat(resent).as("every retransmission is selective")
                .isEqualTo(w.sender.counter(NicCounter.SELECTIVE_RETRANSMITTED));
        assertThat(received).as("sent = received + dropped").isEqualTo(sent - w.dataDropped);
        assertThat(received - duplicates).as("each PSN placed exactly once").isEqualTo(qp.postedPsns());
        assertThat(resent).as("something lost is sent again").isGreaterThanOrEqualTo(w.dataDropped);
        if (w.dataDropped == 0 && jitterNs == 0) {
            assertThat(resent).isZero();
        }
        assertThat(w.pool.outstanding()).as("pooled packets all returned").isZero();
        assertThat(w.sender.packetsHeld() + w.receiver.packetsHeld()).isZero();
    }

    @Property(tries = 10)
    void shouldRunIdenticallyForTheSameSeed(@ForAll @LongRange(min = 1, max = 1_000_000) long seed) {
        List<Integer> sizes = List.of(150_000, 7_000, 90_000);
        long[] a = fingerprint(seed, sizes);
        long[] b = fingerprint(seed, sizes);
        assertThat(a).isEqualTo(b);
    }

    private static long[] fingerprint(long seed, List<Integer> sizes) {
        LossyWire w = new LossyWire(ooo(), 0.05, 2_000_000, seed);
        w.sim.enableFingerprint();
        for (int i = 0; i < sizes.size(); i++) {
            w.post(sizes.get(i), i);
        }
        w.sim.runUntil(1_000_000_000_000L);
        return new long[] {w.sim.fingerprint(), w.sim.eventsProcessed(), w.sim.nowPs(),
            w.sender.counter(NicCounter.RETRANSMITTED_PACKETS), w.receiver.counter(NicCounter.OUT_OF_SEQUENCE)};
    }

    @Test
    void shouldSendAgainOnlyWhatWasLostWhereGoBackNSendsTheRest() {
        // One 2 MB WRITE over a wire that loses 1 % of its data packets and does not reorder.
        List<Integer> sizes = List.of(2_000_000);
        LossyWire sr = run(ooo(), 0.01, 0, 42, sizes);
        LossyWire gbn = run(ooo().withOoo(false), 0.01, 0, 42, sizes);
        assertThat(gbn.qp.selectiveRepeat()).isFalse();
        assertThat(gbn.completed).containsExactly(0L);
        assertThat(sr.completed).containsExactly(0L);
        long srResent = sr.sender.counter(NicCounter.RETRANSMITTED_PACKETS);
        long gbnResent = gbn.sender.counter(NicCounter.RETRANSMITTED_PACKETS);
        assertThat(sr.dataDropped).isGreaterThan(5);
        // Selective repeat: one resend per loss, plus the losses among the resends.
        assertThat(srResent).isBetween(sr.dataDropped, sr.dataDropped + 2);
        assertThat(sr.receiver.counter(NicCounter.DUPLICATE_REQUEST)).isZero();
        assertThat(sr.receiver.counter(NicCounter.TX_SELECTIVE_NAKS)).isPositive();
        assertThat(gbnResent).as("go-back-N resends everything after each loss").isGreaterThan(10 * srResent);
    }

    @Test
    void shouldWaitOutAReorderingSmallerThanTheThreshold() {
        // No loss; each frame is delayed by up to 500 ns (about 6 packets at 100 Gb/s): with a threshold of 8 PSNs
        // every reordering is waited out, and nothing is sent twice.
        LossyWire w = run(ooo(), 0, 500_000, 7, List.of(1_000_000));
        assertThat(w.completed).containsExactly(0L);
        assertThat(w.receiver.counter(NicCounter.OUT_OF_SEQUENCE)).as("packets arrived out of order").isPositive();
        assertThat(w.sender.counter(NicCounter.RETRANSMITTED_PACKETS)).isZero();
        assertThat(w.receiver.counter(NicCounter.TX_NAKS)).isZero();

        LossyWire gbn = run(ooo().withOoo(false), 0, 500_000, 7, List.of(1_000_000));
        assertThat(gbn.completed).containsExactly(0L);
        assertThat(gbn.sender.counter(NicCounter.RETRANSMITTED_PACKETS)).as("go-back-N takes reordering for loss")
                .isPositive();
    }
}
