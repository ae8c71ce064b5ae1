package rocelab.fabric.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.fabric.flowcontrol.PfcParameters;
import rocelab.fabric.flowcontrol.PfcWatchdogParameters;
import rocelab.fabric.probe.PfcReason;

/**
 * The buffer says why it pauses, when it decides: the ingress group reached its XOFF threshold, or the packet went
 * to headroom only because the shared pool had no room while the group was under its threshold.
 */
class SharedBufferTest {
    private static final int PRIO = 3;

    private record Xoff(int port, long groupBytes, PfcReason reason) {}

    private final List<Xoff> xoffs = new ArrayList<>();

    /**
     * Two ports, static thresholds (XOFF at {@code xoff}, XON at {@code xoff - 200}), 1,000 bytes of headroom per
     * port: {@code capacity - 2,000} bytes of shared pool.
     */
    private SharedBuffer buffer(long capacity, long xoff) {
        PfcParameters pfc = new PfcParameters(1 << PRIO, false, 0.125, xoff, xoff - 200, 1000, 0, 0xFFFF,
                PfcWatchdogParameters.off());
        SharedBuffer b = new SharedBuffer(capacity, 2, 8, pfc, new long[] {1000, 1000});
        b.listener(new SharedBuffer.PauseListener() {
            @Override
            public void onXoff(long nowPs, int port, int priority, long groupBytes, PfcReason reason) {
                xoffs.add(new Xoff(port, groupBytes, reason));
            }

            @Override
            public void onXon(long nowPs, int port, int priority, long groupBytes) {}
        });
        return b;
    }

    @Test
    void shouldPauseForTheThresholdWhenTheGroupReachesIt() {
        SharedBuffer b = buffer(1_000_000, 800);
        for (int i = 0; i < 8; i++) {
            assertThat(b.admit(0, 0, 1, PRIO, 100)).isNull();
        }
        assertThat(xoffs).containsExactly(new Xoff(0, 800, PfcReason.THRESHOLD));
    }

    @Test
    void shouldPauseForTheFullSharedPoolWhenTheGroupIsUnderItsThreshold() {
        SharedBuffer b = buffer(3000, 800);
        assertThat(b.sharedPoolBytes()).isEqualTo(1000);
        for (int i = 0; i < 6; i++) {
            assertThat(b.admit(0, 1, 0, PRIO, 100)).isNull(); // port 1: 600 bytes, under its threshold
        }
        for (int i = 0; i < 4; i++) {
            assertThat(b.admit(0, 0, 1, PRIO, 100)).isNull(); // port 0: 400 bytes; the pool is full now
        }
        assertThat(xoffs).isEmpty();
        assertThat(b.sharedUsedBytes()).isEqualTo(1000);
        assertThat(b.admit(0, 0, 1, PRIO, 100)).isNull(); // to headroom: 500 bytes held, threshold 800
        assertThat(xoffs).containsExactly(new Xoff(0, 500, PfcReason.SHARED_POOL_FULL));
        assertThat(b.headroomBytes(0, PRIO)).isEqualTo(100);
    }

    @Test
    void shouldPauseForTheThresholdWhenThePacketWouldCrossItAndThePoolIsFullToo() {
        SharedBuffer b = buffer(3000, 800);
        for (int i = 0; i < 3; i++) {
            assertThat(b.admit(0, 1, 0, PRIO, 100)).isNull();
        }
        for (int i = 0; i < 7; i++) {
            assertThat(b.admit(0, 0, 1, PRIO, 100)).isNull(); // 700 bytes, and the pool full
        }
        assertThat(b.admit(0, 0, 1, PRIO, 150)).isNull(); // 850 > 800: its own threshold stops it as well
        assertThat(xoffs).containsExactly(new Xoff(0, 850, PfcReason.THRESHOLD));
    }
}
