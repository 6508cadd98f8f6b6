#pragma once
// Reading `tpscope-cli ... --json` output in the GUI-equals-CLI tests: the JSON object after any
// warning lines, and a field by dotted path ("alpha_beta.per_step_us").

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

#include <gtest/gtest.h>

#include <string>

namespace tpscope::test {

inline QJsonObject parseCliJson(const std::string& text) {
    const auto start = text.find('{');
    if (start == std::string::npos) {
        ADD_FAILURE() << "no JSON object in:\n" << text;
        return {};
    }
    QJsonParseError error;
    const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(text.substr(start)), &error);
    EXPECT_EQ(error.error, QJsonParseError::NoError) << error.errorString().toStdString() << "\n" << text;
    return doc.object();
}

// The value at a dotted path; Undefined when a step is missing.
inline QJsonValue jsonAt(const QJsonObject& object, const QString& path) {
    QJsonValue v(object);
    for (const auto& key : path.split(QLatin1Char('.'))) {
        if (!v.isObject()) return QJsonValue(QJsonValue::Undefined);
        v = v.toObject().value(key);
    }
    return v;
}

}  // namespace tpscope::test
