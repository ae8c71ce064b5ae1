package rocelab.fabric.flowcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.engine.Simulator;
import rocelab.engine.Time;
import rocelab.fabric.buffer.SharedBuffer;
import rocelab.fabric.congestion.EcnMarking;
import rocelab.fabric.link.Link;
import rocelab.fabric.packet.Ecn;
import rocelab.fabric.packet.Opcodes;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.port.StrictPriorityScheduler;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.probe.PfcReason;

/**
 * A wait that spans several pauses is told part by part to the XOFF that held each part (carried identity): a
 * packet queued through two pauses of different XOFFs was told whole to the last one, whose root then took the wait
 * of the first.
 */
class PauseHistoryTest {
    /** (from, to, xoff) of every wait told. */
    private final List<long[]> told = new ArrayList<>();
    private final PfcProbe probe = new PfcProbe() {
        @Override
        public void onPfcSent(long nowPs, int node, int port, int priority, int quanta, long groupBytes,
                long thresholdBytes, PfcReason reason, long poolUsedBytes, long poolBytes) {}

        @Override
        public void onPausedWait(long nowPs, int node, int port, int priority, int queuePair, long flowCookie,
                boolean ack, long fromClockPs, long toClockPs, long xoffSentPs) {
            told.add(new long[] {fromClockPs, toClockPs, xoffSentPs});
        }
    };

    @Test
    void shouldTellEachPartOfAWaitToTheXoffThatHeldIt() {
        PauseHistory h = new PauseHistory();
        h.xoff(3, 100, 7, 100);    // XOFF sent at 7 holds clock [100, 250)
        h.xoff(3, 250, 9, 100);    // a refresh sent at 9 from 250 on
        h.xoff(3, 400, 11, 100);   // after an XON the clock stood at 400; XOFF 11 from there
        h.report(probe, 0, 1, 2, 3, 4, 5, false, 120, 450);
        assertThat(told).containsExactly(new long[] {120, 250, 7}, new long[] {250, 400, 9}, new long[] {400, 450, 11});
        told.clear();
        h.report(probe, 0, 1, 2, 3, 4, 5, false, 410, 480);
        assertThat(told).as("within the last pause: one report").containsExactly(new long[] {410, 480, 11});
        assertThat(h.lastXoffSentPs(3)).isEqualTo(11);
    }

    @Test
    void shouldKeepOnlyTheXoffsAWaitCanStillReach() {
        PauseHistory h = new PauseHistory();
        for (int i = 0; i < 100; i++) {
            h.xoff(0, 10L * i, i, 10L * i); // nothing older than this XOFF can be asked for
        }
        assertThat(h.kept(0)).isEqualTo(1);
        for (int i = 100; i < 140; i++) {
            h.xoff(0, 10L * i, i, 995); // a packet queued at clock 995 is still held: from the XOFF of 990 on
        }
        assertThat(h.kept(0)).isEqualTo(41);
        h.report(probe, 0, 1, 2, 0, 4, 5, false, 995, 1021);
        assertThat(told).containsExactly(new long[] {995, 1000, 99}, new long[] {1000, 1010, 100},
                new long[] {1010, 1020, 101}, new long[] {1020, 1021, 102});
    }

    @Test
    void shouldSplitAQueuedPacketsWaitAtASwitchPortBetweenTwoPauses() {
        Simulator sim = new Simulator();
        PacketPool pool = new PacketPool(8);
        EcnMarking[] none = new EcnMarking[8];
        Arrays.fill(none, EcnMarking.NONE);
        EgressPort port = new EgressPort(sim, 0, 100_000_000_000L, 8, new StrictPriorityScheduler(), none, false,
                new SharedBuffer(1 << 20, 1, 8));
        port.connect(new Link(sim, 0, (now, p) -> pool.release(p)));
        port.pfcProbe(probe);
        port.onPauseFrame(0, 3, 0xFFFF, 0);                    // XOFF sent at 0 pauses class 3
        Packet p = pool.acquire().initData(0, 0, 1, 0, 0, 938, 1000, Opcodes.RDMA_WRITE_MIDDLE)
                .qos(3, 26, Ecn.ECT_0);
        p.ingressPort(0);
        p.cookie(42);
        sim.runUntil(Time.us(10));
        port.enqueue(Time.us(10), p);                          // queued 10 us into the first pause
        sim.runUntil(Time.us(30));
        port.onPauseFrame(Time.us(30), 3, 0xFFFF, Time.us(30)); // a refresh by another XOFF (another cause)
        sim.runUntil(Time.us(45));
        port.onPauseFrame(Time.us(45), 3, 0, Time.us(44));      // XON at 45 us: 35 us of wait, then it leaves
        sim.runUntil(Time.us(50));
        assertThat(told).containsExactly(new long[] {Time.us(10), Time.us(30), 0},
                new long[] {Time.us(30), Time.us(45), Time.us(30)});
    }
}
