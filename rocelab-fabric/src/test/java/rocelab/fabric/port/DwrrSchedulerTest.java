package rocelab.fabric.port;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.fabric.packet.PacketFifo;
import rocelab.fabric.packet.PacketPool;

/** DWRR shares bytes by weight among backlogged classes; strict classes always go first. */
class DwrrSchedulerTest {
    private final PacketPool pool = new PacketPool(64);

    private PacketFifo[] backlogged(int frameBytes, int... classes) {
        PacketFifo[] q = new PacketFifo[8];
        for (int i = 0; i < 8; i++) {
            q[i] = new PacketFifo();
        }
        for (int tc : classes) {
            for (int i = 0; i < 10_000; i++) {
                q[tc].add(pool.acquire().initData(0, 0, 1, 0, i, frameBytes - 62, frameBytes, 0x07));
            }
        }
        return q;
    }

    private static int mask(PacketFifo[] q) {
        int m = 0;
        for (int i = 0; i < q.length; i++) {
            if (!q[i].isEmpty()) {
                m |= 1 << i;
            }
        }
        return m;
    }

    @Test
    void shouldShareBytesByWeightWhenClassesAreBacklogged() {
        int[] weights = {1, 3, 1, 1, 1, 1, 1, 1};
        DwrrScheduler s = new DwrrScheduler(weights, 0);
        PacketFifo[] q = backlogged(1000, 1, 3);
        long[] bytes = new long[8];
        for (int i = 0; i < 4000; i++) {
            int tc = s.nextClass(q, mask(q));
            bytes[tc] += q[tc].poll().frameBytes();
        }
        assertThat((double) bytes[1] / bytes[3]).isCloseTo(3.0, org.assertj.core.data.Offset.offset(0.05));
    }

    @Test
    void shouldServeStrictClassFirstWhenItHasPackets() {
        int[] weights = {1, 1, 1, 1, 1, 1, 1, 1};
        DwrrScheduler s = new DwrrScheduler(weights, 1 << 6);
        PacketFifo[] q = backlogged(100, 3, 6);
        for (int i = 0; i < 100; i++) {
            int tc = s.nextClass(q, mask(q));
            assertThat(tc).isEqualTo(6);
            q[tc].poll();
        }
    }

    @Test
    void shouldPickHighestClassWhenStrictPriority() {
        PacketFifo[] q = backlogged(100, 0, 2, 5);
        assertThat(new StrictPriorityScheduler().nextClass(q, mask(q))).isEqualTo(5);
        assertThat(new StrictPriorityScheduler().nextClass(q, mask(q) & ~(1 << 5))).isEqualTo(2);
    }
}
