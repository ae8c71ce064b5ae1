package rocelab.fabric.packet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A large pool grows by a quarter when it runs dry, and hands back what was released before creating more. */
class PacketPoolTest {
    @Test
    void shouldGrowALargePoolByAQuarterSoAtMostAFifthIsLeftUnused() {
        PacketPool pool = new PacketPool(16);
        List<Packet> held = new ArrayList<>();
        for (int i = 0; i < 300_000; i++) {
            held.add(pool.acquire());
        }
        // Doubling from 16 would have made 524,288 packets for 300,000; a quarter past 65,536 makes at most 375,000.
        assertThat(pool.createdCount()).isBetween(300_000, 375_000);
        assertThat(pool.outstanding()).isEqualTo(300_000);
        int created = pool.createdCount();
        int growths = pool.growths();
        for (Packet p : held) {
            pool.release(p);
        }
        for (int i = 0; i < 300_000; i++) {
            pool.acquire();
        }
        assertThat(pool.createdCount()).as("released packets are reused").isEqualTo(created);
        assertThat(pool.growths()).isEqualTo(growths);
    }

    @Test
    void shouldDoubleASmallPool() {
        PacketPool pool = new PacketPool(4096);
        for (int i = 0; i < 4097; i++) {
            pool.acquire();
        }
        assertThat(pool.createdCount()).isEqualTo(8192);
        assertThat(pool.growths()).isEqualTo(1);
    }
}
