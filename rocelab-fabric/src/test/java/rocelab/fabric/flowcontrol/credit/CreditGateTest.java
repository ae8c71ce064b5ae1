package rocelab.fabric.flowcontrol.credit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.PacketFifo;
import rocelab.fabric.packet.PacketPool;

class CreditGateTest {
    @Test
    void shouldRefuseAPacketTheCreditsDoNotCoverAndCountTheStall() {
        long[] wakes = new long[1];
        CreditGate gate = new CreditGate(2 * 4160, now -> wakes[0]++);
        assertThat(gate.admit(0, 3, 4122)).isTrue();
        gate.consume(3, 4122);
        assertThat(gate.admit(10, 3, 4122)).isTrue();
        gate.consume(3, 4122);
        assertThat(gate.available(3)).isZero();
        assertThat(gate.admit(100, 3, 64)).as("zero credits: not even one block").isFalse();
        assertThat(gate.canSend(2, 4122)).as("another lane has its own credits").isTrue();
        gate.onUpdate(1_100, 3, 2 * 65 + 1);
        assertThat(gate.stallPs(3, 5_000)).as("one block back covers the 64-byte packet").isEqualTo(1_000);
        assertThat(wakes[0]).isEqualTo(1);
        assertThat(gate.canSend(3, 4122)).isFalse();
    }

    /**
     * A stall that ends the instant it begins (the credits arrive just as the port is free, as when a lane is paced by
     * its receiver's credits at its own rate) held nothing back: the lane is not held back after it, and the root of
     * its last stall that lasted stays the one it waited behind.
     */
    @Test
    void shouldHoldNothingBackForAStallThatEndedTheInstantItBegan() {
        CreditGate gate = new CreditGate(4160, now -> {});
        gate.owner(5, 2);
        long far = CreditRoot.of(CreditRoot.CONGESTION, 7, 1, 1, 0);
        long other = CreditRoot.of(CreditRoot.CONGESTION, 8, 3, 3, 0);
        gate.consume(3, 4160);
        assertThat(gate.admit(100, 3, 4160)).isFalse();
        assertThat(gate.heldBack(3)).as("waiting now").isTrue();
        gate.onUpdate(600, 3, 2 * 65, far);
        assertThat(gate.lostTimeToCredits(3)).isTrue();
        gate.consume(3, 4160);
        assertThat(gate.heldBack(3)).as("its last packet waited 500 ps").isTrue();
        long lasted = gate.root(3);
        assertThat(CreditRoot.node(lasted)).isEqualTo(7);
        assertThat(gate.admit(900, 3, 4160)).isFalse();
        gate.onUpdate(900, 3, 3 * 65, other);
        assertThat(gate.lostTimeToCredits(3)).as("the credits came the instant it was free").isFalse();
        gate.consume(3, 4160);
        assertThat(gate.heldBack(3)).isFalse();
        assertThat(gate.root(3)).isEqualTo(lasted);
        assertThat(gate.stallPs(3, 1_000)).isEqualTo(500);
    }

    /** One told wait: its span on the lane's stall clock and the root it was behind. */
    private record Told(long from, long to, long root) {}

    private static List<Told> told(CreditGate gate, int vl, long from, long to) {
        List<Told> out = new java.util.ArrayList<>();
        gate.tellWait((now, node, port, lane, qp, cookie, psn, ack, f, t, root) -> {
            assertThat(lane).isEqualTo(vl);
            out.add(new Told(f, t, root));
        }, 5_000, 5, 2, vl, 9, 1L, 0, false, from, to);
        return out;
    }

    /** Lane {@code vl} stalls from {@code from} until an update at {@code to} that carries {@code root}. */
    private static void stall(CreditGate gate, int vl, long from, long to, long root) {
        gate.consume(vl, (int) (gate.available(vl) * CreditGate.BLOCK_BYTES));
        assertThat(gate.admit(from, vl, 64)).isFalse();
        gate.onUpdate(to, vl, gate.blocksSent(vl) + 1, root);
    }

    /**
     * A packet that waited through a stall behind one congestion point, then one behind another, waited behind each
     * for its own part, as the updates that ended them carried them, not all of it behind the last: consecutive stalls
     * behind one root are one part, a stall still in force is behind no root named yet, and so is a wait older than
     * the stalls the gate keeps.
     */
    @Test
    void shouldTellEachPartOfAWaitBehindTheRootOfTheStallItWasIn() {
        CreditGate gate = new CreditGate(4160, now -> {});
        gate.owner(5, 2);
        long a = CreditRoot.of(CreditRoot.CONGESTION, 7, 1, 1, 0);
        long b = CreditRoot.of(CreditRoot.CONGESTION, 8, 3, 3, 0);
        long seenA = CreditRoot.seenFrom(a, 5, 2);
        long seenB = CreditRoot.seenFrom(b, 5, 2);
        stall(gate, 3, 100, 600, a);    // clock 0..500 behind a
        stall(gate, 3, 700, 900, a);    // 500..700, a again: one part
        stall(gate, 3, 1_000, 1_300, b); // 700..1000 behind b
        assertThat(gate.endedStallPs(3)).isEqualTo(1_000);
        assertThat(gate.root(3)).isEqualTo(seenB);
        // Ready from clock 200 to now (1000): 500 behind a, then 300 behind b.
        assertThat(told(gate, 3, 200, 1_000)).containsExactly(new Told(200, 700, seenA), new Told(700, 1_000, seenB));
        // Within one stall: one part.
        assertThat(told(gate, 3, 800, 950)).containsExactly(new Told(800, 950, seenB));
        // A stall in force now: its part has no root yet.
        gate.consume(3, 64);
        assertThat(gate.admit(1_400, 3, 64)).isFalse();
        assertThat(gate.stallPs(3, 1_500)).isEqualTo(1_100);
        assertThat(told(gate, 3, 900, 1_100)).containsExactly(new Told(900, 1_000, seenB),
                new Told(1_000, 1_100, CreditRoot.NONE));
        gate.onUpdate(1_500, 3, gate.blocksSent(3) + 1, a);
        // Other lanes keep their own.
        assertThat(told(gate, 2, 0, 50)).containsExactly(new Told(0, 50, CreditRoot.NONE));
        // Many alternations later, the oldest part of a long wait is behind no root named: only the last ones are kept.
        long t = 2_000;
        for (int i = 0; i < 2 * StallRoots.KEPT; i++) {
            stall(gate, 3, t, t + 10, i % 2 == 0 ? b : a);
            t += 20;
        }
        List<Told> all = told(gate, 3, 0, gate.endedStallPs(3));
        assertThat(all.get(0)).isEqualTo(new Told(0, all.get(1).from(), CreditRoot.NONE));
        assertThat(all).hasSize(StallRoots.KEPT + 1);
        assertThat(all.get(all.size() - 1).to()).isEqualTo(gate.endedStallPs(3));
        for (int i = 1; i < all.size(); i++) {
            assertThat(all.get(i).from()).as("contiguous").isEqualTo(all.get(i - 1).to());
            assertThat(all.get(i).root()).isIn(seenA, seenB);
        }
    }

    @Test
    void shouldDecideOnTwelveBitCountersExactlyAsOnUnboundedOnesAcrossManyWraps() {
        SplittableRandom random = new SplittableRandom(7);
        CreditGate gate = new CreditGate(InfinibandParameters.MAX_BUFFER_BYTES, now -> {});
        long freed = 0;
        long sent = 0;
        for (int i = 0; i < 200_000; i++) {
            int bytes = 30 + random.nextInt(4200);
            boolean expected = gate.available(0) >= CreditGate.blocks(bytes);
            assertThat(gate.canSend(0, bytes)).isEqualTo(expected);
            if (expected) {
                gate.consume(0, bytes);
                sent += CreditGate.blocks(bytes);
            }
            if (random.nextInt(3) == 0) {
                freed = sent - random.nextLong(0, Math.min(sent - freed, 2048) + 1) / 2;
                freed = Math.max(freed, gate.creditLimit(0) - 2048);
                gate.onUpdate(i, 0, freed + 2048);
            }
        }
        assertThat(gate.blocksSent(0)).as("many wraps of the 4096 counter").isGreaterThan(100 * 4096);
    }

    @Test
    void shouldRefuseMoreThanTheTwelveBitWindow() {
        assertThatThrownBy(() -> new CreditGate(InfinibandParameters.MAX_BUFFER_BYTES + 64, now -> {}))
                .hasMessageContaining("at most 2048");
    }

    @Test
    void shouldAdvertiseFreedBlocksPlusTheBufferAndCoalesceWhileAnUpdateWaits() {
        PacketPool pool = new PacketPool(16, FrameFormat.IB_FRAMING);
        long[] wakes = new long[1];
        CreditReturn ret = new CreditReturn(64 * 1024, pool, FrameFormat.infiniband(), now -> wakes[0]++);
        ret.onReceived(0, 3, 4122);
        ret.onReceived(0, 3, 100);
        ret.onFreed(5, 3, 4122);
        ret.onFreed(6, 3, 100);
        assertThat(wakes[0]).as("one wake-up for both frees").isEqualTo(1);
        var update = ret.nextUpdate(7);
        assertThat(update.creditLimit()).isEqualTo(1024 + 65 + 2);
        assertThat(update.frameBytes()).isEqualTo(6);
        assertThat(update.wireBytes()).isEqualTo(8);
        assertThat(ret.hasUpdate()).isFalse();
        ret.onReceived(0, 1, 64 * 1024);
        assertThatThrownBy(() -> ret.onReceived(0, 1, 1)).hasMessageContaining("credit overrun on VL 1");
    }

    @Test
    void shouldShareTheLowTableByWeightAndLetOneLowPacketThroughAfterTheHighLimit() {
        var params = new InfinibandParameters(65536, 65536, InfinibandParameters.defaults().slToVl(),
                List.of(new InfinibandParameters.ArbitrationEntry(7, 255)),
                List.of(new InfinibandParameters.ArbitrationEntry(0, 48),
                        new InfinibandParameters.ArbitrationEntry(1, 16)), 1);
        VlArbiter arbiter = new VlArbiter(params);
        PacketPool pool = new PacketPool(64);
        PacketFifo[] queues = new PacketFifo[8];
        for (int i = 0; i < 8; i++) {
            queues[i] = new PacketFifo();
        }
        int[] served = new int[8];
        for (int i = 0; i < 4000; i++) {
            for (int vl : new int[] {0, 1}) {
                if (queues[vl].isEmpty()) {
                    queues[vl].add(pool.acquire().initData(0, 0, 1, 0, 0, 960, 1024, 0));
                }
            }
            int ready = 1 | 2 | (i % 2 == 0 ? 1 << 7 : 0);
            if ((ready & 1 << 7) != 0 && queues[7].isEmpty()) {
                queues[7].add(pool.acquire().initData(0, 0, 1, 0, 0, 960, 1024, 0));
            }
            int vl = arbiter.nextClass(queues, ready);
            served[vl]++;
            pool.release(queues[vl].poll());
        }
        // Weights 48 : 16 (x 64 B) give three 1 KiB packets of VL0 for each of VL1.
        assertThat((double) served[0] / served[1]).isCloseTo(3.0, org.assertj.core.data.Offset.offset(0.05));
        assertThat(served[7]).as("high priority first whenever it is ready").isEqualTo(2000);
        // Always ready, VL7 may send 1 x 4096 bytes (four packets) before one low-priority packet goes.
        Arrays.fill(served, 0);
        for (int vl : new int[] {0, 1, 7}) {
            if (queues[vl].isEmpty()) {
                queues[vl].add(pool.acquire().initData(0, 0, 1, 0, 0, 960, 1024, 0));
            }
        }
        for (int i = 0; i < 5000; i++) {
            int vl = arbiter.nextClass(queues, 1 | 2 | 1 << 7);
            served[vl]++;
            pool.release(queues[vl].poll());
            queues[vl].add(pool.acquire().initData(0, 0, 1, 0, 0, 960, 1024, 0));
        }
        assertThat(served[7]).isEqualTo(4000);
        assertThat(served[0] + served[1]).isEqualTo(1000);
    }
}
