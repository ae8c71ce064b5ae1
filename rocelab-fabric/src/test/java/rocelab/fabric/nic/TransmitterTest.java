package rocelab.fabric.nic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.engine.Simulator;
import rocelab.engine.Time;
import rocelab.fabric.flowcontrol.PauseState;
import rocelab.fabric.link.Link;
import rocelab.fabric.packet.Ecn;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.probe.NicCounter;

/**
 * The RNIC's control frames (ACK, NAK, CNP) leave highest priority first, a paused priority's frames wait for its
 * resume, and frames of priorities queued in any order keep their FIFO order within a priority.
 */
class TransmitterTest {
    private final Simulator sim = new Simulator();
    private final PacketPool pool = new PacketPool(16);
    private final PauseState pause = new PauseState();
    /** (priority, PSN) of each frame, in the order it reached the far end of the link. */
    private final List<String> arrived = new ArrayList<>();
    private final Transmitter tx;

    TransmitterTest() {
        Transmitter[] self = new Transmitter[1];
        int handler = sim.register((nowPs, kind, arg) -> {
            if (kind == NicEvent.TX_COMPLETE) {
                self[0].onTransmitted(nowPs);
            }
        });
        LineRate line = new LineRate(100_000_000_000L);
        tx = new Transmitter(sim, handler, 0, NicParameters.defaults(1000), line, pool,
                new long[NicCounter.values().length], pause, new QueuePairRotation(sim, handler, line));
        tx.connect(new Link(sim, Time.us(1), (nowPs, p) -> {
            arrived.add(p.priority() + "/" + p.psn());
            pool.release(p);
        }));
        self[0] = tx;
    }

    private void send(int priority, long psn) {
        Packet ack = pool.acquire().initAck(sim.nowPs(), PacketKind.ACK, 0, 1, 7, psn, 64).qos(priority, 0,
                Ecn.NOT_ECT);
        tx.sendControl(sim.nowPs(), ack);
    }

    @Test
    void shouldSendHigherPrioritiesFirstAndInOrderWithinOne() {
        send(0, 1); // the port is free: on the wire at once; the rest queue behind it
        send(1, 2);
        send(5, 3);
        send(3, 4);
        send(5, 5);
        send(7, 6);
        send(1, 7);
        sim.runUntil(Time.us(10));
        assertThat(arrived).containsExactly("0/1", "7/6", "5/3", "5/5", "3/4", "1/2", "1/7");
    }

    @Test
    void shouldHoldAPausedPriorityUntilItResumes() {
        send(0, 1);
        pause.pause(0, 5);
        send(5, 2);
        send(3, 3);
        send(5, 4);
        sim.runUntil(Time.us(10));
        assertThat(arrived).containsExactly("0/1", "3/3");
        assertThat(tx.packetsHeld()).isEqualTo(2);
        pause.resume(sim.nowPs(), 5);
        tx.kick(sim.nowPs());
        send(6, 5);
        sim.runUntil(Time.us(20));
        assertThat(arrived).containsExactly("0/1", "3/3", "5/2", "6/5", "5/4");
        assertThat(tx.packetsHeld()).isZero();
    }
}
