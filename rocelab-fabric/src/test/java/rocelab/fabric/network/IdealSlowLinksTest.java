package rocelab.fabric.network;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.fabric.topology.LeafSpineSpec;
import rocelab.fabric.topology.LinkParameters;
import rocelab.fabric.topology.Topology;

/**
 * The slow links the ideal network has too. An audit's NIC cable at 25 Gb/s among 100 Gb/s ones, and a leaf-spine
 * whose every uplink ran at 25 Gb/s, each put the ideal of a ring AllReduce at 3.4x the healthy fabric's, and nothing
 * printed named them. Each link told is checked against {@link BestPath} itself: some message's best path is no
 * faster (no shorter) than the link; a slow link beside a fast equal-cost one is not told (the ideal avoids it).
 */
class IdealSlowLinksTest {
    private static final long G100 = 100_000_000_000L;
    private static final long G25 = 25_000_000_000L;
    private static final long US = 1_000_000;

    /** 2 leaves x 4 hosts, 2 spines, 100 Gb/s, 1 us: hosts h0-h7, leaf0 = node 8, leaf1 = 9, spines 10 and 11. */
    private static Topology fabric() {
        LinkParameters l = new LinkParameters(G100, US);
        return new LeafSpineSpec(2, 2, 4, 1, l, l).build();
    }

    private static void set(Topology t, String a, String b, long rate, long delay) {
        int x = t.nodeByName(a);
        int y = t.nodeByName(b);
        for (Topology.Edge e : t.edges()) {
            if (e.a().node() == x && e.b().node() == y || e.a().node() == y && e.b().node() == x) {
                t.setLinkParameters(e.index(), new LinkParameters(rate, delay));
                return;
            }
        }
        throw new AssertionError("no link " + a + "-" + b);
    }

    /** The slowest hop of the best path from {@code src} to {@code dst}, as the ideal network takes it. */
    private static long bottleneck(Topology t, int src, int dst) {
        long[] rates = new long[t.nodeCount()];
        long[] delays = new long[t.nodeCount()];
        int hops = new BestPath(t).fill(src, dst, rates, delays);
        long min = Long.MAX_VALUE;
        for (int k = 0; k < hops; k++) {
            min = Math.min(min, rates[k]);
        }
        return min;
    }

    @Test
    void shouldNameAHostLinkSlowerThanTheOtherHostLinksAsInTheIdeal() {
        Topology t = fabric();
        set(t, "h4", "leaf1", G25, US);
        IdealSlowLinks s = IdealSlowLinks.of(t);
        assertThat(s.tiers()).isEmpty();
        assertThat(s.links()).singleElement().satisfies(l -> {
            assertThat(l.a() + "-" + l.b()).isIn("h4-leaf1", "leaf1-h4");
            assertThat(l.hostLink()).isTrue();
            assertThat(l.role()).isEqualTo("host links");
            assertThat(l.peers()).isEqualTo(7);
            assertThat(l.rateBps()).isEqualTo(G25);
            assertThat(l.roleRateBps()).isEqualTo(G100);
            assertThat(l.slower()).isTrue();
            assertThat(l.longer()).isFalse();
        });
        // The ideal has it: a message from h0 to h4 is held to its rate there.
        assertThat(bottleneck(t, 0, 4)).isEqualTo(G25);
    }

    @Test
    void shouldNotNameASlowUplinkBesideAFastEqualCostOneForTheIdealAvoidsIt() {
        Topology t = fabric();
        set(t, "leaf1", "spine0", G25, US);
        assertThat(IdealSlowLinks.of(t).isEmpty()).isTrue();
        assertThat(bottleneck(t, 0, 4)).isEqualTo(G100);
        assertThat(bottleneck(t, 4, 0)).isEqualTo(G100);
    }

    @Test
    void shouldNameALeafsUplinksWhenAllOfThemAreSlow() {
        Topology t = fabric();
        set(t, "leaf1", "spine0", G25, US);
        set(t, "leaf1", "spine1", G25, US);
        IdealSlowLinks s = IdealSlowLinks.of(t);
        // Half the uplinks are slow: the role's rate is the faster of the two equally common ones.
        assertThat(s.links()).hasSize(2).allSatisfy(l -> {
            assertThat(l.role()).isEqualTo("links between switches 1 and 2 hops from the hosts");
            assertThat(l.roleRateBps()).isEqualTo(G100);
            assertThat(l.hostLink()).isFalse();
        });
        assertThat(bottleneck(t, 0, 4)).isEqualTo(G25);
    }

    @Test
    void shouldTellATierSlowerThanTheHostLinksAndNoLinkOfIt() {
        Topology t = fabric();
        for (String leaf : new String[] {"leaf0", "leaf1"}) {
            for (String spine : new String[] {"spine0", "spine1"}) {
                set(t, leaf, spine, G25, US);
            }
        }
        IdealSlowLinks s = IdealSlowLinks.of(t);
        assertThat(s.links()).isEmpty();
        assertThat(s.tiers()).singleElement().satisfies(tier -> {
            assertThat(tier.links()).isEqualTo(4);
            assertThat(tier.rateBps()).isEqualTo(G25);
            assertThat(tier.hostRateBps()).isEqualTo(G100);
            assertThat(tier.example()).isEqualTo("leaf0-spine0");
        });
        assertThat(bottleneck(t, 0, 4)).isEqualTo(G25);
    }

    @Test
    void shouldNameALongHostLinkAndNothingOnAUniformFabric() {
        assertThat(IdealSlowLinks.of(fabric()).isEmpty()).isTrue();
        Topology t = fabric();
        set(t, "h2", "leaf0", G100, 200 * US);
        assertThat(IdealSlowLinks.of(t).links()).singleElement().satisfies(l -> {
            assertThat(l.longer()).isTrue();
            assertThat(l.slower()).isFalse();
            assertThat(l.roleDelayPs()).isEqualTo(US);
        });
        // 1 us more than the others is at the threshold; less is not told.
        Topology u = fabric();
        set(u, "h2", "leaf0", G100, US + IdealSlowLinks.LONGER_PS - 1);
        assertThat(IdealSlowLinks.of(u).isEmpty()).isTrue();
    }

    /**
     * Audit: leaf0-spine0 and leaf1-spine1 slowed. Each hop has a fast link, so the hop-wise best rates say a message
     * between the leaves runs at 100 Gb/s, but every path crosses one slow link: the ideal holds it to 25 Gb/s (the
     * widest path's slowest link, {@link BestPath#onePathBps}), and both links are told as in the ideal. Before, a
     * 2-rank ring over such a fabric had an ideal 5.7x below what it ran alone, counted as GPU wait, and nothing named
     * the links.
     */
    @Test
    void shouldNameSlowLinksThatEveryPathCrossesAtSomeHopThoughEachHopHasAFastOne() {
        Topology t = fabric();
        set(t, "leaf0", "spine0", G25, US);
        set(t, "leaf1", "spine1", G25, US);
        IdealSlowLinks s = IdealSlowLinks.of(t);
        assertThat(s.links()).extracting(l -> l.a() + "-" + l.b()).containsExactlyInAnyOrder("leaf0-spine0",
                "leaf1-spine1");
        assertThat(s.tiers()).isEmpty();
        assertThat(bottleneck(t, 0, 4)).as("hop by hop").isEqualTo(G100);
        assertThat(onePath(t, 0, 4)).isEqualTo(G25);
        assertThat(onePath(t, 4, 0)).isEqualTo(G25);
        // Within a leaf no path crosses them.
        assertThat(onePath(t, 0, 1)).isEqualTo(G100);
    }

    @Test
    void shouldGiveTheHopWiseBottleneckAsTheOnePathRateWhereSomePathHasNoSlowerLink() {
        assertThat(onePath(fabric(), 0, 4)).isEqualTo(G100);
        Topology t = fabric();
        set(t, "leaf1", "spine0", G25, US);
        assertThat(onePath(t, 0, 4)).isEqualTo(G100);
        set(t, "h4", "leaf1", G25, US);
        assertThat(onePath(t, 0, 4)).isEqualTo(G25);
        assertThat(bottleneck(t, 0, 4)).isEqualTo(G25);
    }

    /** The widest path's slowest link from {@code src} to {@code dst}. */
    private static long onePath(Topology t, int src, int dst) {
        BestPath best = new BestPath(t);
        best.fill(src, dst, new long[t.nodeCount()], new long[t.nodeCount()]);
        return best.onePathBps();
    }
}
