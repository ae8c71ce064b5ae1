package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.output.SummaryText;

/**
 * An audit's incast with {@code nic.cc: none} printed "303 CNPs sent   0 handled" and nothing else: the receivers
 * answered the marks, and no sender acted on them. The RNICs count such CNPs as ignored (rp_cnp_ignored), and the
 * congestion line now says how many and why; with DCQCN, which acts on every CNP, it says nothing more.
 */
class CnpIgnoredTest {
    private static final String INCAST = """
            name: incast
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: single-switch, hosts: 6, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: CC}
            observe: {sample-interval: 0}
            traffic:
              - {kind: incast, senders: 1-4, receiver: 0, size: 2MB}
            """;

    @Test
    void shouldSayHowManyCnpsTheSendersIgnoredAndWhy() {
        RunResult none = Scenarios.assemble(INCAST.replace("CC", "none")).run(ProgressListener.NONE);
        assertThat(none.totals().cnpSent()).isPositive();
        assertThat(none.totals().cnpHandled()).isZero();
        assertThat(none.totals().cnpIgnored()).isEqualTo(none.totals().cnpSent());
        assertThat(SummaryText.render(none, null)).contains(String.format(Locale.ROOT, "   %,d CNPs sent   0 handled"
                + "   %,d ignored (their senders' congestion control does not act on CNPs)   0 rate cuts",
                none.totals().cnpSent(), none.totals().cnpIgnored()));

        RunResult dcqcn = Scenarios.assemble(INCAST.replace("CC", "dcqcn")).run(ProgressListener.NONE);
        assertThat(dcqcn.totals().cnpHandled()).isPositive();
        assertThat(dcqcn.totals().cnpIgnored()).isZero();
        assertThat(SummaryText.render(dcqcn, null)).doesNotContain("ignored");
    }
}
