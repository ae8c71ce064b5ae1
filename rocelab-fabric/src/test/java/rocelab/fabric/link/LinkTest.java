package rocelab.fabric.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
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
}
