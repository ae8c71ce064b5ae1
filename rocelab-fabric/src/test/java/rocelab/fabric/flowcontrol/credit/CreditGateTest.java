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
