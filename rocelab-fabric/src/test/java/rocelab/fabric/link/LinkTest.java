package rocelab.fabric.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rocelab.engine.EventHandler;
import rocelab.engine.PartitionedSimulator;
import rocelab.engine.Simulator;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketPool;

/**
 * A link delivers each frame at its own due time (start + serialisation + delay), in order, with one pending arrival:
 * the next arrival is scheduled from the time the arriving frame carries for the frame behind it.
 */
class LinkTest {
    private final Simulator sim = new Simulator();
    private final PacketPool pool = new PacketPool(16);
    private final List<Long> arrivals = new ArrayList<>();
    private final List<Packet> frames = new ArrayList<>();
    private final Link link = new Link(sim, 1_000, (nowPs, p) -> {
        arrivals.add(nowPs);
        frames.add(p);
    });

    private Packet frame(int psn) {
        return pool.acquire().initData(sim.nowPs(), 0, 1, 7, psn, 100, 150, 0);
    }

    @Test
    void shouldDeliverEveryFrameAtItsOwnDueTimeWhenFramesAreQueuedBehindOthersInFlight() {
        Packet a = frame(0);
        Packet b = frame(1);
        Packet c = frame(2);
        link.transmit(0, 100, a);
        link.transmit(100, 300, b);
        link.transmit(400, 50, c);
        sim.runUntil(1_200);
        assertThat(arrivals).containsExactly(1_100L);
        // Queued behind c while b and c are still on the wire.
        Packet e = frame(3);
        link.transmit(1_200, 20, e);
        sim.runUntil(5_000);
        assertThat(arrivals).containsExactly(1_100L, 1_400L, 1_450L, 2_220L);
        assertThat(link.inFlight()).isZero();
        // The link ran empty: the next frame starts a new FIFO.
        Packet d = frame(4);
        link.transmit(5_000, 10, d);
        sim.runUntil(10_000);
        assertThat(arrivals).containsExactly(1_100L, 1_400L, 1_450L, 2_220L, 6_010L);
        assertThat(frames).containsExactly(a, b, c, e, d);
    }

    /** Frames put on one link back to back and in bursts: (start, serialisation) pairs in ps. */
    private static long[][] schedule(long seed, int frames) {
        SplittableRandom r = new SplittableRandom(seed);
        long[][] out = new long[frames][];
        long t = 0;
        for (int i = 0; i < frames; i++) {
            // Mostly back to back (frames queue in flight), sometimes a gap longer than the delay (the link runs
            // empty, and a window's frames start a new FIFO).
            t += r.nextInt(8) == 0 ? r.nextLong(5_000) : 0;
            long serialisation = 10 + r.nextLong(300);
            out[i] = new long[] {t, serialisation};
            t += serialisation;
        }
        return out;
    }

    /** Puts the frames of {@code plan} on {@code link} from {@code sender}, each at its start. */
    private static void send(Simulator sender, Link link, long[][] plan) {
        PacketPool senderPool = new PacketPool(16);
        int[] next = {0};
        int[] self = {-1};
        self[0] = sender.register(new EventHandler() {
            @Override
            public void onEvent(long nowPs, int kind, long arg) {
                long[] f = plan[next[0]];
                link.transmit(nowPs, f[1], senderPool.acquire().initData(nowPs, 0, 1, 7, next[0], 100, 150, 0));
                if (++next[0] < plan.length) {
                    sender.schedule(plan[next[0]][0], self[0], 0, 0L);
                }
            }
        });
        sender.schedule(plan[0][0], self[0], 0, 0L);
    }

    @Test
    void aLinkCutBetweenPartitionsDeliversWhatOneSimulatorDelivers() {
        for (long seed = 1; seed <= 4; seed++) {
            long[][] plan = schedule(seed, 2_000);
            // One simulator: the reference.
            Simulator one = new Simulator();
            List<Long> expected = new ArrayList<>();
            Link whole = new Link(one, 1_000, (nowPs, p) -> expected.add(nowPs << 16 | p.psn()));
            send(one, whole, plan);
            one.runUntil(Long.MAX_VALUE);
            assertThat(expected).hasSize(plan.length);

            for (int threads = 1; threads <= 2; threads++) {
                PartitionedSimulator parts = new PartitionedSimulator(2, 1_000);
                List<Long> received = new ArrayList<>();
                // The link's handler is the receiver's; the sender's frames cross at each window's end.
                Link cut = new Link(parts.partition(1), 1_000, (nowPs, p) -> received.add(nowPs << 16 | p.psn()));
                cut.crossFrom(parts.partition(0));
                parts.addInbox(1, cut);
                send(parts.partition(0), cut, plan);
                // In steps that end between windows: what is on the wire counts the frames waiting for a barrier.
                long sent = 0;
                for (long until = 7_777; parts.runUntil(until, threads); until += 7_777) {
                    while (sent < plan.length && plan[(int) sent][0] <= until) {
                        sent++;
                    }
                    assertThat(cut.inFlight()).isEqualTo(sent - received.size());
                }
                assertThat(received).as("seed %d, %d threads", seed, threads).isEqualTo(expected);
                assertThat(cut.crossings()).isEqualTo(plan.length);
                assertThat(cut.inFlight()).isZero();
            }
        }
    }
}
