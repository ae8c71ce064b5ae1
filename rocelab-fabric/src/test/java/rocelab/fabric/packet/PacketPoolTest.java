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

    /** Extras are taken at a packet's first write of one, given back at its release, and reused before more are made. */
    @Test
    void shouldLendExtrasOnlyToPacketsThatWriteThemAndReuseThem() {
        PacketPool pool = new PacketPool(64);
        Packet data = pool.acquire().qos(3, 26, Ecn.ECT_0);
        assertThat(data.markCongestionExperienced(5, 3, 2)).isTrue(); // the mark lies in the packet: no extras
        assertThat(pool.extrasCreatedCount()).isZero();
        assertThat(new int[] {data.markNode(), data.markPort()}).containsExactly(3, 2);
        Packet cnp = pool.acquire().notificationCause(data, 1);
        assertThat(pool.extrasCreatedCount()).as("one batch").isEqualTo(16);
        pool.release(cnp);
        pool.release(data);
        for (int i = 0; i < 1_000; i++) {
            Packet again = pool.acquire();
            assertThat(again.causePsn()).as("given back cleared").isEqualTo(-1);
            assertThat(again.markNode()).isEqualTo(-1);
            again.notificationCause(data, i + 2);
            pool.release(again);
        }
        assertThat(pool.extrasCreatedCount()).as("reused, none made").isEqualTo(16);
    }

    /** A partition whose packets take extras while another's releases get them back: evened out between windows. */
    @Test
    void shouldEvenOutTheFreeExtrasBetweenPools() {
        PacketPool taker = new PacketPool(64);
        PacketPool giver = new PacketPool(64);
        List<Packet> out = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            out.add(taker.acquire().placementOffset(i));
        }
        for (Packet p : out) {
            giver.release(p); // released where they arrive
        }
        int made = taker.extrasCreatedCount();
        PacketPool.rebalance(List.of(taker, giver));
        for (int i = 0; i < 500; i++) {
            taker.acquire().placementOffset(i);
        }
        assertThat(taker.extrasCreatedCount()).as("the taker's extras came back from the giver").isEqualTo(made);
    }
}
