package rocelab.fabric.packet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pool grows by a quarter when it runs dry, and hands back what was released before creating more. */
class PacketPoolTest {
    @Test
    void shouldGrowByAQuarterSoAtMostAQuarterIsLeftUnused() {
        PacketPool pool = new PacketPool(16);
        List<Packet> held = new ArrayList<>();
        for (int i = 0; i < 70_000; i++) {
            held.add(pool.acquire());
        }
        // Doubling from 16 would have made 131,072 packets for 70,000.
        assertThat(pool.createdCount()).isBetween(70_000, 87_500);
        assertThat(pool.outstanding()).isEqualTo(70_000);
        int created = pool.createdCount();
        int growths = pool.growths();
        for (Packet p : held) {
            pool.release(p);
        }
        for (int i = 0; i < 70_000; i++) {
            pool.acquire();
        }
        assertThat(pool.createdCount()).as("released packets are reused").isEqualTo(created);
        assertThat(pool.growths()).isEqualTo(growths);
    }
}
