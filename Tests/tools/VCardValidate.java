// Reads vCard files with ez-vcard (Debian's libez-vcard-java, an independent implementation of
// vCard 2.1, 3.0 and 4.0) and prints, per file, one line of JSON: each card's parse warnings and
// what VCard.validate(version) says about it. Used by Tests/python/vcard_validator.py.
//
//   java -cp ez-vcard.jar:vinnie.jar:DIR VCardValidate [--version 2.1|3.0|4.0] FILE|- ...
//
// Without --version each card is validated against the VERSION it declares.
import ezvcard.VCard;
import ezvcard.VCardVersion;
import ezvcard.ValidationWarning;
import ezvcard.io.ParseWarning;
import ezvcard.io.scribe.ScribeIndex;
import ezvcard.io.text.VCardReader;
import ezvcard.property.VCardProperty;

import java.io.File;
import java.io.InputStream;
import java.util.List;
import java.util.Map;

public class VCardValidate {
    public static void main(String[] args) throws Exception {
        VCardVersion forced = null;
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--version")) {
                forced = VCardVersion.valueOfByStr(args[++i]);
                if (forced == null) {
                    System.err.println("VCardValidate: unknown version " + args[i]);
                    System.exit(2);
                }
                continue;
            }
            out.setLength(0);
            out.append("{\"file\":").append(quote(args[i])).append(",\"cards\":[");
            String error = null;
            try {
                InputStream in = args[i].equals("-") ? System.in : new java.io.FileInputStream(new File(args[i]));
                // The reader decodes the bytes as UTF-8 unless a property's CHARSET says otherwise,
                // which is what vCard 3.0 and 4.0 require (2.1 declares its charsets per property).
                try (VCardReader reader = new VCardReader(in)) {
                    ScribeIndex scribes = reader.getScribeIndex();
                    VCard card;
                    boolean first = true;
                    while ((card = reader.readNext()) != null) {
                        if (!first) out.append(',');
                        first = false;
                        appendCard(out, card, reader.getWarnings(), forced, scribes);
                    }
                }
            } catch (Exception e) {
                error = e.toString();
            }
            out.append("],\"error\":").append(error == null ? "null" : quote(error)).append('}');
            System.out.println(out);
        }
    }

    private static void appendCard(StringBuilder out, VCard card, List<ParseWarning> parseWarnings,
                                   VCardVersion forced, ScribeIndex scribes) {
        VCardVersion version = forced != null ? forced : card.getVersion();
        out.append("{\"version\":").append(quote(card.getVersion() == null ? null : card.getVersion().getVersion()));
        out.append(",\"validated_as\":").append(quote(version.getVersion()));
        out.append(",\"parse_warnings\":[");
        boolean first = true;
        for (ParseWarning warning : parseWarnings) {
            if (!first) out.append(',');
            first = false;
            out.append("{\"line\":").append(warning.getLineNumber())
               .append(",\"property\":").append(quote(warning.getPropertyName()))
               .append(",\"code\":").append(warning.getCode())
               .append(",\"message\":").append(quote(warning.getMessage())).append('}');
        }
        out.append("],\"validation\":[");
        first = true;
        for (Map.Entry<VCardProperty, List<ValidationWarning>> entry : card.validate(version)) {
            VCardProperty property = entry.getKey();
            // A warning about the card as a whole (a required property missing) has no property.
            String name = property == null ? null : propertyName(property, scribes);
            for (ValidationWarning warning : entry.getValue()) {
                if (!first) out.append(',');
                first = false;
                out.append("{\"property\":").append(quote(name))
                   .append(",\"code\":").append(warning.getCode())
                   .append(",\"message\":").append(quote(warning.getMessage())).append('}');
            }
        }
        out.append("]}");
    }

    private static String propertyName(VCardProperty property, ScribeIndex scribes) {
        if (property instanceof ezvcard.property.RawProperty) {
            return ((ezvcard.property.RawProperty) property).getPropertyName();
        }
        try {
            return scribes.getPropertyScribe(property).getPropertyName();
        } catch (RuntimeException e) {
            return property.getClass().getSimpleName();
        }
    }

    private static String quote(String text) {
        if (text == null) return "null";
        StringBuilder quoted = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"': quoted.append("\\\""); break;
                case '\\': quoted.append("\\\\"); break;
                case '\n': quoted.append("\\n"); break;
                case '\r': quoted.append("\\r"); break;
                case '\t': quoted.append("\\t"); break;
                default:
                    if (c < 0x20) quoted.append(String.format("\\u%04x", (int) c));
                    else quoted.append(c);
            }
        }
        return quoted.append('"').toString();
    }
}
