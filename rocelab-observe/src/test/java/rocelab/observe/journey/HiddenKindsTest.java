package rocelab.observe.journey;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What a shortened run of a journey's lines says it hides, counted by kind. */
class HiddenKindsTest {
    private static JourneyText.Told told(String like) {
        return new JourneyText.Told(0, "g", "text", like, 0);
    }

    @Test
    void shouldCountOneLostPsnOrAckInTheSingular() {
        // A link-failure audit's journey printed "1 PSNs lost on the link ...".
        var psn = told("PSNs lost on the link h1 -> switch0");
        var ack = told("ACKs lost on the link switch0 -> h1");
        var mark = told("MARK");
        String text = JourneyText.hidden(List.of(mark, psn), List.of(psn, ack, ack, mark));
        assertThat(text).isEqualTo("(1 PSN lost on the link h1 -> switch0, 2 ACKs lost on the link switch0 -> h1,"
                + " 1 MARK)");
        assertThat(JourneyText.hidden(List.of(psn, psn), List.of(psn))).isEqualTo("like these");
        // lossless-dcqcn's flow 3 read "... 3 more (2 CNP_SENT, 1 CNP_HANDLED)": the kinds' names, not words.
        var sent = told("CNPs sent");
        var handled = told("CNPs handled");
        assertThat(JourneyText.hidden(List.of(sent, handled), List.of(sent, sent, handled)))
                .isEqualTo("(2 CNPs sent, 1 CNP handled)");
    }
}
