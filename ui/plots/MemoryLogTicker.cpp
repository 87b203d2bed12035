#include "plots/MemoryLogTicker.h"

#include "plots/ByteFormat.h"

namespace pinscope::ui {

QString MemoryLogTicker::getTickLabel(double tick, const QLocale&, QChar, int) { return memory_text(tick); }

}  // namespace pinscope::ui
