package rocelab.fabric.switching;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** ECMP hashing spreads QPs over next hops, and identical hashing at every tier polarizes. */
class EcmpTest {
    @Test
    void shouldSpreadEntropyEvenlyWhenHashIsGood() {
        for (EcmpHash h : new EcmpHash[] {EcmpHash.CRC32, EcmpHash.MURMUR3}) {
            int[] buckets = new int[8];
            for (int port = 0xC000; port < 0xC000 + 8000; port++) {
                buckets[h.hash(Switch.ipOf(1), Switch.ipOf(77), port, 4791, 42) % 8]++;
            }
            for (int b : buckets) {
                assertThat(b).as(h.name()).isBetween(850, 1150);
            }
        }
    }

    @Test
    void shouldPolarizeWhenTwoTiersUseTheSameHashAndSeed() {
        // Flows that tier 1 sent to uplink 0 all take uplink 0 again at tier 2 when both hash alike.
        int sameSeedSpread = secondTierUplinksUsed(7, 7);
        int perSwitchSpread = secondTierUplinksUsed(7, 1234567);
        assertThat(sameSeedSpread).isEqualTo(1);
        assertThat(perSwitchSpread).isEqualTo(4);
    }

    private static int secondTierUplinksUsed(long seedTier1, long seedTier2) {
        boolean[] used = new boolean[4];
        for (int port = 0xC000; port < 0xC000 + 4000; port++) {
            int h1 = EcmpHash.CRC32.hash(Switch.ipOf(3), Switch.ipOf(900), port, 4791, seedTier1) % 4;
            if (h1 == 0) {
                used[EcmpHash.CRC32.hash(Switch.ipOf(3), Switch.ipOf(900), port, 4791, seedTier2) % 4] = true;
            }
        }
        int n = 0;
        for (boolean u : used) {
            n += u ? 1 : 0;
        }
        return n;
    }
}
