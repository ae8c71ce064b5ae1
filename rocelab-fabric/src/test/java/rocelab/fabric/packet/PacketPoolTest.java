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

    /** At a run's end the free packets go; those still out stay counted and come back; the pool still hands out. */
    @Test
    void dropsItsFreePacketsAndStillWorks() {
        PacketPool pool = new PacketPool(1024);
        List<Packet> out = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            out.add(pool.acquire());
        }
        pool.dropFree();
        assertThat(pool.outstanding()).isEqualTo(10);
        for (Packet p : out) {
            pool.release(p);
        }
        assertThat(pool.outstanding()).isZero();
        List<Packet> again = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            again.add(pool.acquire());
        }
        assertThat(again).doesNotHaveDuplicates();
        assertThat(again.subList(0, 10)).containsExactlyInAnyOrderElementsOf(out);
        assertThat(pool.outstanding()).isEqualTo(40);
    }
}
