// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Comparing the GUI's numbers with a CLI command's --json: parse the command's output (the JSON object
// after any warning lines), read a field by dotted path ("alpha_beta.per_step_us"), and check that every
// number of one JSON value equals the other's, recursively.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

#include <gtest/gtest.h>

#include <string>

namespace tpscope::test {

inline QJsonObject parseJson(const std::string& text) {
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

// Every number of `expected` equals `actual`'s, recursively; labels (file names vs run names) may differ.
inline void expectSameNumbers(const QJsonValue& expected, const QJsonValue& actual, const std::string& where) {
    if (expected.isObject()) {
        ASSERT_TRUE(actual.isObject()) << where;
        const QJsonObject e = expected.toObject(), a = actual.toObject();
        for (auto it = e.begin(); it != e.end(); ++it) {
            if (it.key() == QStringLiteral("label")) continue;
            ASSERT_TRUE(a.contains(it.key())) << where << "." << it.key().toStdString();
            expectSameNumbers(it.value(), a.value(it.key()), where + "." + it.key().toStdString());
        }
    } else if (expected.isArray()) {
        ASSERT_TRUE(actual.isArray()) << where;
        const QJsonArray e = expected.toArray(), a = actual.toArray();
        ASSERT_EQ(e.size(), a.size()) << where;
        for (qsizetype i = 0; i < e.size(); ++i) expectSameNumbers(e[i], a[i], where + "[" + std::to_string(i) + "]");
    } else {
        EXPECT_EQ(expected, actual) << where;
    }
}

}  // namespace tpscope::test
