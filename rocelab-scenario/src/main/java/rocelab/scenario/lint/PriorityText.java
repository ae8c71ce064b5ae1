package rocelab.scenario.lint;

import java.util.ArrayList;
import java.util.List;

/** Priority sets for people: {@code [3, 4]}, or {@code none}. */
final class PriorityText {
    private PriorityText() {}

    static String list(int mask) {
        List<String> p = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            if ((mask & 1 << i) != 0) {
                p.add(String.valueOf(i));
            }
        }
        return p.isEmpty() ? "none" : "[" + String.join(", ", p) + "]";
    }

    /** Whether a congestion control reacts to ECN marks (through CNPs or ECN echoes). */
    static boolean readsEcn(String cc) {
        return cc.equals("dcqcn") || cc.equals("dctcp");
    }
}
